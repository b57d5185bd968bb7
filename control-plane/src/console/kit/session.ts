/**
 * @module console/kit/session
 * A console session is an API key of its own, minted through `POST /client/v1/api-keys` when the
 * member signs in (with the key they typed, or a one-time sign-in link) and revoked on sign-out.
 * The cookie carries it: `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page
 * sends it), `Path=/console`, `Secure` behind https. Nothing is kept in the process, so every
 * replica serves every session, and revoking the key in the API ends the session too.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

export const COOKIE = 'platform_console';
const MAX_AGE_S = 12 * 3600;

export interface Session {
  keyId: string;
  key: string;
}

export function readSession(c: Context): Session | null {
  const raw = getCookie(c, COOKIE);
  if (raw === undefined) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Session>;
    return typeof value.keyId === 'string' && typeof value.key === 'string' ? { keyId: value.keyId, key: value.key } : null;
  } catch {
    return null;
  }
}

export function writeSession(c: Context, session: Session, secure: boolean): void {
  setCookie(c, COOKIE, Buffer.from(JSON.stringify(session)).toString('base64url'), {
    path: '/console', httpOnly: true, sameSite: 'Strict', secure, maxAge: MAX_AGE_S,
  });
}

export function clearSession(c: Context, secure: boolean): void {
  deleteCookie(c, COOKIE, { path: '/console', httpOnly: true, sameSite: 'Strict', secure });
}
