/**
 * @module cli/upload-body
 * The body of a hosted upload (`POST /v0/apps/{app_id}/versions`): the bundle alone
 * (`application/javascript`), or, with its source map, `multipart/form-data` with a `bundle` part
 * and a `sourceMap` part. Built whole in memory (the bundle is at most 10 MB, its map 20 MB), so
 * its length is known and the progress bar counts the bytes taken by the connection.
 */
import { randomBytes } from 'node:crypto';

export interface UploadBody {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * @example const { bytes, contentType } = uploadBody(bundle.code, bundle.sourceMap);
 */
export function uploadBody(code: Uint8Array, sourceMap: Uint8Array | null): UploadBody {
  if (sourceMap === null) return { bytes: code, contentType: 'application/javascript' };
  const boundary = `platform-${randomBytes(12).toString('hex')}`;
  const encode = (text: string) => Buffer.from(text, 'utf8');
  const head = (name: string, file: string, type: string) =>
    encode(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${file}"\r\ncontent-type: ${type}\r\n\r\n`);
  const bytes = Buffer.concat([
    head('bundle', 'bundle.js', 'application/javascript'), code, encode('\r\n'),
    head('sourceMap', 'bundle.js.map', 'application/json'), sourceMap, encode(`\r\n--${boundary}--\r\n`),
  ]);
  return { bytes, contentType: `multipart/form-data; boundary=${boundary}` };
}
