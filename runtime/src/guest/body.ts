/**
 * @module guest/body
 * Bodies of Request and Response, held as bytes (no streams): what a body may be made of, and the
 * read-once methods both classes share.
 */
import { TextEncoder, toBytes, utf8Decode } from './encoding.ts';
import { URLSearchParams } from './url.ts';

export type BodyInit = string | ArrayBuffer | ArrayBufferView | URLSearchParams | null | undefined;

const encoder = new TextEncoder();

/** Copies a body into bytes and says which content-type it implies. */
export function extractBody(body: BodyInit): { bytes: Uint8Array | null; type: string | null } {
  if (body === null || body === undefined) return { bytes: null, type: null };
  if (typeof body === 'string') return { bytes: encoder.encode(body), type: 'text/plain;charset=UTF-8' };
  if (body instanceof URLSearchParams) return { bytes: encoder.encode(body.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return { bytes: toBytes(body, 'body').slice(), type: null };
  if (typeof body === 'object' && typeof (body as { getReader?: unknown }).getReader === 'function') {
    throw new TypeError('Streaming bodies are not supported by this runtime: pass a string, ArrayBuffer or typed array');
  }
  return { bytes: encoder.encode(String(body)), type: 'text/plain;charset=UTF-8' };
}

/** The body state of one Request or Response. */
export class BodyState {
  bytes: Uint8Array | null;
  used = false;
  constructor(bytes: Uint8Array | null) { this.bytes = bytes; }
  consume(): Uint8Array {
    if (this.used) throw new TypeError('Body has already been consumed');
    this.used = true;
    return this.bytes ?? new Uint8Array(0);
  }
  clone(): BodyState {
    if (this.used) throw new TypeError('Cannot clone a body that has already been consumed');
    return new BodyState(this.bytes === null ? null : this.bytes.slice());
  }
}

/** The read methods, as async functions over a BodyState. */
export const bodyReaders = {
  async arrayBuffer(state: BodyState): Promise<ArrayBuffer> {
    const bytes = state.consume();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  },
  async bytes(state: BodyState): Promise<Uint8Array> { return state.consume().slice(); },
  async text(state: BodyState): Promise<string> { return utf8Decode(state.consume()); },
  async json(state: BodyState): Promise<unknown> { return JSON.parse(utf8Decode(state.consume())); },
};
