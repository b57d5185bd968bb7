/**
 * @module @platform/sdk/node
 * Node-only adapter (a separate entry: the main entry stays Web-standard for isolates): `serve` for
 * self-hosted apps, and the synchronous `node:crypto` delivery signer the servers use.
 */
export { serve, type Servable, type ServeOptions, type Served } from './serve.ts';
export { toWebRequest, type NodeRequestRead } from './node-to-web.ts';
export { writeWebResponse } from './web-to-node.ts';
export { signDeliverySync, deliveryHeadersSync, nodeHmacSha256, useNodeHmac, type SyncSignInput, type SyncHeadersInput } from './sign.ts';
export { answerClientErrorsInOrder, taggedRefusal, MAX_HEADER_BYTES, type ClientErrorOptions } from './client-errors.ts';
