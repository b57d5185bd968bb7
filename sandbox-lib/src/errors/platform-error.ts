/**
 * @module errors/platform-error
 * The one error family. A `PlatformError` carries the spec's `_tag`, its status and its fields, and
 * serializes to the spec's error body `{ _tag, message, path, ...fields }`. Servers throw these; one
 * handler per server turns them into responses.
 */
import { ERROR_TAGS, type ErrorTag } from './tags.ts';

export type PathSegment = string | number;

/** A problem in a request, as listed in `issues` of `PlatformApiInvalidRequestError`. */
export interface RequestIssue {
  path: PathSegment[];
  message: string;
  code?: string;
}

export interface ErrorBody {
  _tag: string;
  message: string;
  path: PathSegment[];
  [field: string]: unknown;
}

export class PlatformError extends Error {
  readonly tag: ErrorTag;
  readonly status: number;
  readonly path: PathSegment[];
  readonly fields: Record<string, unknown>;

  /**
   * @example
   * throw new PlatformError('PlatformAppScopeMissingError', 'Needs blocks:write', { fields: { scope: 'blocks:write' } });
   */
  constructor(tag: ErrorTag, message: string, options: { path?: PathSegment[]; fields?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = tag;
    this.tag = tag;
    this.status = ERROR_TAGS[tag].status;
    this.path = options.path ?? [];
    this.fields = options.fields ?? {};
  }

  get fault(): 'user' | 'platform' {
    return ERROR_TAGS[this.tag].fault;
  }

  toBody(): ErrorBody {
    return { ...this.fields, _tag: this.tag, message: this.message, path: this.path };
  }
}

/** True for a PlatformError, also one created in another realm or copy of this module. */
export function isPlatformError(value: unknown): value is PlatformError {
  return value instanceof PlatformError ||
    (typeof value === 'object' && value !== null && typeof (value as PlatformError).tag === 'string' &&
      (value as PlatformError).tag in ERROR_TAGS && typeof (value as PlatformError).toBody === 'function');
}

/** Shorthand for the 400 with `issues[]`. */
export function invalidRequest(issues: RequestIssue[], message = 'The request does not match the schema'): PlatformError {
  return new PlatformError('PlatformApiInvalidRequestError', message, { path: issues[0]?.path ?? [], fields: { issues } });
}
