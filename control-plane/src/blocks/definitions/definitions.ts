/**
 * @module blocks/definitions/definitions
 * Block definitions of the version an install runs (type, actions with hints, viewer inputs,
 * `staleAfter`) and the compiled validators of their schemas. Versions never change, so both are
 * kept per `appId@version` (least recently used dropped first) and the database is read once.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { ActionDefinition, BlockDefinition, Manifest } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { findVersion } from '../../apps/versions/store.ts';
import { createVersionCache } from '../../apps/versions/version-cache.ts';
import type { VersionValidators } from '../../apps/versions/validators.ts';

export interface BlockType {
  definition: BlockDefinition;
  actions: ReadonlyMap<string, ActionDefinition>;
  props: ValidateFunction;
  state: ValidateFunction;
  /** `value` with the type's `field` schema defaults filled in where it leaves them out (on a copy). */
  withDefaults(field: 'props' | 'state', value: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

export interface BlockDefinitions {
  /** The block type in the version, or undefined when the version has none of that name. */
  blockType(appId: string, version: number, type: string): Promise<BlockType | undefined>;
}

/**
 * @example
 * const definitions = createBlockDefinitions({ db, schemaValidators: apps.schemaValidators });
 * const poll = await definitions.blockType(appId, install.version, 'poll');
 */
export function createBlockDefinitions(deps: {
  db: Db;
  schemaValidators(appId: string, version: number): Promise<VersionValidators>;
  max?: number;
}): BlockDefinitions {
  const load = async (appId: string, version: number): Promise<Map<string, BlockType>> => {
    const row = await findVersion(deps.db, appId, version);
    if (row === undefined) return new Map();
    const validators = await deps.schemaValidators(appId, version);
    const manifest = row.manifest as Manifest;
    return new Map((manifest.blocks ?? []).map((definition) => [definition.type, {
      definition,
      actions: new Map((definition.actions ?? []).map((a) => [a.name, a])),
      props: validators.props.get(definition.type)!,
      state: validators.state.get(definition.type)!,
      withDefaults: (field: 'props' | 'state', value: Readonly<Record<string, unknown>>) => validators.withDefaults(definition.type, field, value),
    }]));
  };

  const types = createVersionCache(load, deps.max);

  return {
    async blockType(appId, version, type) {
      return (await types.get(appId, version)).get(type);
    },
  };
}
