/**
 * @module apps/assets/sniff
 * What an image is, read from its bytes and never from a header or a file name: the type from its
 * magic number (JPEG, PNG, WebP, GIF; SVG and everything else refused), then its size per side
 * from that format's own header by `image-size`'s reader for that one format. Nothing is decoded:
 * a file that claims 100,000 pixels a side costs the few bytes of its header, not the pixels.
 */
import { LIMITS } from '@platform/sdk';
import { GIF } from 'image-size/types/gif';
import type { IImage } from 'image-size/types/interface';
import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { WEBP } from 'image-size/types/webp';

export type ImageType = (typeof LIMITS.blockData.imageTypes)[number];

export type Sniffed =
  | { ok: true; contentType: ImageType; width: number; height: number }
  | { ok: false; problem: 'type' | 'pixels' | 'unreadable'; message: string };

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** Each accepted type: its magic number and the header reader of that format alone. */
const FORMATS: ReadonlyArray<{ type: ImageType; matches: (b: Uint8Array) => boolean; reader: IImage }> = [
  { type: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]), reader: JPG },
  { type: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), reader: PNG },
  { type: 'image/gif', matches: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')), reader: GIF },
  { type: 'image/webp', matches: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8), reader: WEBP },
];

const MAX_SIDE = LIMITS.blockData.imagePixelsPerSide;

/**
 * @example
 * const sniffed = sniffImage(bytes);
 * if (!sniffed.ok) refuse(sniffed.message);
 */
export function sniffImage(bytes: Uint8Array): Sniffed {
  const format = FORMATS.find((f) => f.matches(bytes));
  if (format === undefined) return { ok: false, problem: 'type', message: 'Copied images are JPEG, PNG, WebP or GIF' };
  let width: number;
  let height: number;
  try {
    ({ width, height } = format.reader.calculate(bytes));
  } catch {
    return { ok: false, problem: 'unreadable', message: `The image's ${format.type.slice(6).toUpperCase()} header cannot be read` };
  }
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    return { ok: false, problem: 'unreadable', message: 'The image states no size' };
  }
  if (width > MAX_SIDE || height > MAX_SIDE) {
    return { ok: false, problem: 'pixels', message: `Copied images are at most ${MAX_SIDE.toLocaleString('en-US')} pixels per side` };
  }
  return { ok: true, contentType: format.type, width, height };
}
