/**
 * @module authoring/http
 * Small Web-standard HTTP helpers: reading a body under a byte cap (declared length first, then
 * while streaming, so an oversized body is never buffered whole) and JSON answers.
 */
import { declaredOver, readCapped } from '../net/capped-body.ts';

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too-large' };

/**
 * The raw body of `request`, or `too-large` past `maxBytes` (net/capped-body.ts counts it).
 * @example const body = await readBody(request, 1024 * 1024); if (!body.ok) return new Response(null, { status: 413 });
 */
export async function readBody(request: Request, maxBytes: number): Promise<BodyRead> {
  if (declaredOver(request.headers.get('content-length'), maxBytes)) return { ok: false, reason: 'too-large' };
  if (!request.body || typeof request.body.getReader !== 'function') {
    // Hosts with a minimal Request (the hosted runtime's guest) have no body stream but do read
    // whole bodies; there the host has already capped the size, and the cap is checked again here.
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, bytes };
  }
  const bytes = await readCapped(request.body, maxBytes);
  return bytes === null ? { ok: false, reason: 'too-large' } : { ok: true, bytes };
}

/**
 * A JSON response.
 * @example jsonResponse({ error: 'unknown-block-type' }, 404)
 */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/**
 * The request's path as the client sent it, for log lines: behind a proxy that mounts the app
 * under a prefix (`x-forwarded-prefix`, as the platform's runtime does for `/apps/{slug}/…`) the
 * prefix comes first, so the line names `/apps/hello/boom` rather than the `/boom` the app routes.
 * No query: it may carry tokens.
 * @example requestPath(request) // '/apps/hello/boom/ada'
 */
export function requestPath(request: Request): string {
  const { pathname } = new URL(request.url);
  const prefix = request.headers.get('x-forwarded-prefix') ?? '';
  // Only a plain path prefix is trusted to be one (a header of a client of a self-hosted app may say anything).
  return /^(\/[A-Za-z0-9._~%!$&'()*+,;=:@-]+)+$/.test(prefix) ? `${prefix.slice(0, 200)}${pathname}` : pathname;
}
