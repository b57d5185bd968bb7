/**
 * @module guest/web/encoding
 * TextEncoder/TextDecoder (UTF-8, per the Encoding standard) and atob/btoa, in plain JavaScript.
 */

export function utf8Encode(input: string): Uint8Array {
  const out = new Uint8Array(input.length * 3);
  let n = 0;
  for (let i = 0; i < input.length; i++) {
    let c = input.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < input.length) {
      const d = input.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // lone surrogate
    if (c < 0x80) out[n++] = c;
    else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 63);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    }
  }
  return out.slice(0, n);
}

/** Decodes UTF-8; `fatal` throws on malformed input, otherwise U+FFFD replaces it. */
export function utf8Decode(bytes: Uint8Array, fatal = false, ignoreBOM = false): string {
  let i = !ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const parts: string[] = [];
  let units: number[] = [];
  const bad = (): void => {
    if (fatal) throw new TypeError('The encoded data was not valid UTF-8');
    units.push(0xfffd);
  };
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need = 0;
    let cp = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (b < 0x80) { units.push(b); i++; continue; }
    if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0xf; if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 0x7; if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; }
    else { bad(); i++; continue; }
    let j = 1;
    for (; j <= need; j++) {
      const c = bytes[i + j];
      if (c === undefined || c < lower || c > upper) break;
      lower = 0x80;
      upper = 0xbf;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (j <= need) { bad(); i += j; continue; }
    i += need + 1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else units.push(cp);
    if (units.length > 8192) { parts.push(String.fromCharCode(...units)); units = []; }
  }
  parts.push(String.fromCharCode(...units));
  return parts.join('');
}

export function toBytes(input: unknown, what: string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError(`${what}: expected an ArrayBuffer or a view of one`);
}

export class TextEncoder {
  get encoding(): string { return 'utf-8'; }
  encode(input = ''): Uint8Array { return utf8Encode(String(input)); }
  encodeInto(input: string, dest: Uint8Array): { read: number; written: number } {
    const bytes = utf8Encode(String(input));
    const n = Math.min(bytes.length, dest.length);
    let cut = n;
    while (cut > 0 && cut < bytes.length && (bytes[cut]! & 0xc0) === 0x80) cut--; // whole characters only
    dest.set(bytes.subarray(0, cut));
    return { read: utf8Decode(bytes.subarray(0, cut), false, true).length, written: cut };
  }
}

export class TextDecoder {
  readonly #fatal: boolean;
  readonly #ignoreBOM: boolean;
  constructor(label = 'utf-8', options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
    const l = String(label).trim().toLowerCase();
    if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8') throw new RangeError(`The encoding "${label}" is not supported`);
    this.#fatal = options.fatal === true;
    this.#ignoreBOM = options.ignoreBOM === true;
  }
  get encoding(): string { return 'utf-8'; }
  get fatal(): boolean { return this.#fatal; }
  get ignoreBOM(): boolean { return this.#ignoreBOM; }
  decode(input?: unknown): string {
    if (input === undefined) return '';
    return utf8Decode(toBytes(input, 'TextDecoder.decode'), this.#fatal, this.#ignoreBOM);
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function invalidCharacter(message: string): Error {
  const err = new Error(message);
  err.name = 'InvalidCharacterError';
  return err;
}

export function btoa(input: unknown): string {
  const s = String(input);
  let out = '';
  for (let i = 0; i < s.length; i += 3) {
    const a = s.charCodeAt(i);
    const b = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    const c = i + 2 < s.length ? s.charCodeAt(i + 2) : 0;
    if (a > 255 || b > 255 || c > 255) throw invalidCharacter('btoa: the string contains characters outside of Latin1');
    const n = (a << 16) | (b << 8) | c;
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    out += i + 1 < s.length ? B64[(n >> 6) & 63]! : '=';
    out += i + 2 < s.length ? B64[n & 63]! : '=';
  }
  return out;
}

export function atob(input: unknown): string {
  let s = String(input).replace(/[\t\n\f\r ]/g, '');
  if (s.length % 4 === 0) s = s.replace(/==?$/, '');
  if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw invalidCharacter('atob: the string is not correctly encoded');
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    buffer = (buffer << 6) | B64.indexOf(s[i]!);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 255);
    }
  }
  return out;
}

/** One byte per character (the host's `latin1` strings): bytes → string. */
export function bytesToLatin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/** One byte per character: string → bytes (each character's low 8 bits). */
export function latin1ToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
