/**
 * @module guest/web/body
 * Bodies of Request and Response, held as they arrived (no streams): a string of text, a `latin1`
 * string of bytes from the host, or bytes the app gave. Each read converts only what it needs, so
 * a JSON delivery read with `json()` is parsed straight from the string the host passed in, and a
 * response made from a string leaves as that string.
 */
import type { BodyKind } from '../../shared/bridge.ts';
import { bytesToLatin1, latin1ToBytes, toBytes, utf8Decode, utf8Encode } from './encoding.ts';
import { URLSearchParams } from './url.ts';

export type BodyInit = string | ArrayBuffer | ArrayBufferView | URLSearchParams | null | undefined;

export type BodySource =
  | { kind: 'text'; text: string }
  | { kind: 'latin1'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array };

/** What a body may be made of, and the content-type it implies. */
export function extractBody(body: BodyInit): { source: BodySource | null; type: string | null } {
  if (body === null || body === undefined) return { source: null, type: null };
  if (typeof body === 'string') return { source: { kind: 'text', text: body }, type: 'text/plain;charset=UTF-8' };
  if (body instanceof URLSearchParams) return { source: { kind: 'text', text: body.toString() }, type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return { source: { kind: 'bytes', bytes: toBytes(body, 'body').slice() }, type: null };
  if (typeof body === 'object' && typeof (body as { getReader?: unknown }).getReader === 'function') {
    throw new TypeError('Streaming bodies are not supported by this runtime: pass a string, ArrayBuffer or typed array');
  }
  return { source: { kind: 'text', text: String(body) }, type: 'text/plain;charset=UTF-8' };
}

/** A body the host passed in as a string. */
export function hostBody(text: string | null, kind: BodyKind): BodySource | null {
  return text === null ? null : { kind, text };
}

function asBytes(source: BodySource): Uint8Array {
  if (source.kind === 'bytes') return source.bytes;
  return source.kind === 'text' ? utf8Encode(source.text) : latin1ToBytes(source.text);
}

function asText(source: BodySource): string {
  // UTF-8 decode as the Fetch standard reads text: a leading byte order mark is dropped.
  const text = source.kind === 'text' ? source.text : utf8Decode(asBytes(source));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The body state of one Request or Response. */
export class BodyState {
  source: BodySource | null;
  used = false;
  constructor(source: BodySource | null) { this.source = source; }
  consume(): BodySource {
    if (this.used) throw new TypeError('Body has already been consumed');
    this.used = true;
    return this.source ?? { kind: 'text', text: '' };
  }
  clone(): BodyState {
    if (this.used) throw new TypeError('Cannot clone a body that has already been consumed');
    const s = this.source;
    return new BodyState(s === null || s.kind !== 'bytes' ? s : { kind: 'bytes', bytes: s.bytes.slice() });
  }
  /** The bytes without consuming (fetch hands them to the host); null for no body. */
  peekBytes(): Uint8Array | null {
    return this.source === null ? null : asBytes(this.source);
  }
  /** The body as a string for the host: text stays text, bytes go one byte per character. */
  forHost(): { text: string; kind: BodyKind } | null {
    const s = this.source;
    if (s === null) return null;
    return s.kind === 'bytes' ? { text: bytesToLatin1(s.bytes), kind: 'latin1' } : { text: s.text, kind: s.kind };
  }
}

/** The read methods, as async functions over a BodyState. */
export const bodyReaders = {
  async arrayBuffer(state: BodyState): Promise<ArrayBuffer> {
    const bytes = asBytes(state.consume());
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  },
  async bytes(state: BodyState): Promise<Uint8Array> {
    const source = state.consume();
    return source.kind === 'bytes' ? source.bytes.slice() : asBytes(source);
  },
  async text(state: BodyState): Promise<string> { return asText(state.consume()); },
  async json(state: BodyState): Promise<unknown> { return JSON.parse(asText(state.consume())); },
};
