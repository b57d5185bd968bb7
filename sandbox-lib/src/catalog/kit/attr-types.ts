/**
 * @module catalog/kit/attr-types
 * The building blocks of attribute specs: each returns a check that throws the first problem of a
 * value. Values set to `undefined` count as absent, as they vanish once the tree is serialized.
 */
import { OURS, SPEC, formatCount } from './messages.ts';
import type { AttrAt, AttrCheck, AttrSpec } from './spec.ts';
import type { PathSegment } from './types.ts';
import { nameProblem } from '../../names/index.ts';
import { graphemeLength, hasVisibleText } from './measure.ts';
import { fail } from './state.ts';

/** The place of a member inside an attribute value. */
export function sub(at: AttrAt, key: string | number): AttrAt {
  return { ...at, name: at.name === '' ? String(key) : `${at.name}.${key}`, path: [...at.path, key] };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const required = (check: AttrCheck): AttrSpec => ({ check, required: true });
export const optional = (check: AttrCheck): AttrSpec => ({ check });

function typeError(at: AttrAt, expected: string): never {
  return fail(OURS.attrType(at.component, at.name, expected), at.path);
}

export interface TextOptions {
  /** Longest allowed, in characters as people see them. */
  readonly max: number;
  /** Needs visible text (labels, titles). */
  readonly label?: boolean;
  /** Counts toward the block's 20,000 characters; false for text never shown (copy text). */
  readonly shown?: boolean;
}

/** Plain text shown to members, measured in graphemes. */
export function text(options: TextOptions): AttrCheck {
  return (value, at) => {
    if (typeof value !== 'string') typeError(at, 'text');
    const length = graphemeLength(value);
    if (length > options.max) fail(SPEC.tooLong(options.max), at.path);
    if (options.label && !hasVisibleText(value)) fail(SPEC.labelInvisible, at.path);
    if (options.shown !== false) at.state.addBlockText(length);
  };
}

/** A label: text with something visible in it. */
export const label = (max: number): AttrCheck => text({ max, label: true });

/**
 * A name (a person's, a file's): a label whose characters pass the one rule for names
 * (`nameProblem`: no control, format or invisible characters but what scripts and emoji need, no
 * space at an edge), as members take it for who or what it names.
 */
export function name(max: number): AttrCheck {
  const asLabel = label(max);
  return (value, at) => {
    asLabel(value, at);
    const problem = nameProblem(value as string);
    if (problem !== null) fail(problem, at.path);
  };
}

/** An identifier matching `pattern`; `says` describes the format in the message. */
export function identifier(pattern: RegExp, says: string): AttrCheck {
  return (value, at) => {
    if (typeof value !== 'string' || !pattern.test(value)) typeError(at, says);
  };
}

export function oneOf<const T extends string>(values: readonly T[]): AttrCheck {
  return (value, at) => {
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) typeError(at, `one of ${values.join(', ')}`);
  };
}

export const flag = (): AttrCheck => (value, at) => {
  if (typeof value !== 'boolean') typeError(at, 'true or false');
};

export function literal(expected: number | string): AttrCheck {
  return (value, at) => {
    if (value !== expected) typeError(at, String(expected));
  };
}

export interface NumberOptions {
  readonly integer?: boolean;
  readonly min?: number;
  readonly max?: number;
  /** The minimum itself is not allowed (a max must be above zero). */
  readonly above?: boolean;
}

/** A finite number (JSON has no other kind; builders could still pass NaN or Infinity). */
export function number(options: NumberOptions = {}): AttrCheck {
  const kind = options.integer ? 'a whole number' : 'a finite number';
  const { min, max, above } = options;
  const range =
    min !== undefined && max !== undefined ? `${kind} from ${formatCount(min)} to ${formatCount(max)}`
    : min !== undefined ? `${kind} ${above ? 'above' : 'of at least'} ${formatCount(min)}`
    : kind;
  return (value, at) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || (options.integer && !Number.isInteger(value))) typeError(at, range);
    if (min !== undefined && (above ? value <= min : value < min)) typeError(at, range);
    if (max !== undefined && value > max) typeError(at, range);
  };
}

export interface ListOptions {
  readonly min?: number;
  readonly max?: number;
  /** Message over `max` (and under `min` unless `few` is given). */
  readonly count?: string;
  readonly few?: string;
}

/** A list of items, each checked by `item`; counts are checked before the items. */
export function list(item: AttrCheck, options: ListOptions = {}): AttrCheck {
  const { min = 0, max = Number.POSITIVE_INFINITY } = options;
  return (value, at) => {
    if (!Array.isArray(value)) typeError(at, 'a list');
    if (value.length > max) fail(options.count ?? OURS.attrType(at.component, at.name, `a list of at most ${formatCount(max)}`), [...at.path, max]);
    if (value.length < min) fail(options.few ?? options.count ?? OURS.attrType(at.component, at.name, `a list of at least ${formatCount(min)}`), at.path);
    for (let i = 0; i < value.length; i++) item(value[i], sub(at, i));
  };
}

/** An object with known fields; missing required fields and unknown ones are problems. */
export function record(fields: Readonly<Record<string, AttrSpec>>): AttrCheck {
  return (value, at) => {
    if (!isRecord(value)) typeError(at, 'an object');
    checkFields(value, fields, at, (key) => OURS.unknownAttr(at.component, `${at.name}.${key}`), (key) => OURS.needsAttr(at.component, `${at.name}.${key}`));
  };
}

/** Shared by node attrs and nested objects: unknown keys in document order, then the missing ones. */
export function checkFields(
  value: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, AttrSpec>>,
  at: AttrAt,
  unknown: (key: string) => string,
  missing: (key: string) => string,
  missingAt: PathSegment[] = at.path,
): void {
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (member === undefined) continue;
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!field) fail(unknown(key), [...at.path, key]);
    field.check(member, sub(at, key));
  }
  for (const key of Object.keys(fields)) {
    if (fields[key]!.required && value[key] === undefined) fail(missing(key), missingAt);
  }
}
