export { measureSchema, type SchemaBudget, type SchemaMeasure, type SchemaPath, type SchemaProblem, type SchemaProblemKind, type SchemaStats } from './budget.ts';
export { jsonSize, utf8Length, isJsonContainer, type JsonSize } from './json-size.ts';
export { resolveLocalRef } from './pointer.ts';
