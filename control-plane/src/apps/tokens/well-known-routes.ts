/**
 * @module apps/tokens/well-known-routes
 * `GET /.well-known/platform/jwks.json`: the public keys of every token the service signs, for MCP
 * servers with `auth: platform` (spec). Keys appear five minutes before they sign (keyring.ts), so
 * the five-minute cache never misses a new key.
 */
import type { Hono } from 'hono';
import { JwksResponseSchema } from '@platform/sdk';
import type { AppEnv } from '../../core/http/env.ts';
import type { TokenService } from './service.ts';

export const JWKS_PATH = '/.well-known/platform/jwks.json';

export function registerTokenWellKnownRoutes(app: Hono<AppEnv>, tokens: TokenService): void {
  app.get(JWKS_PATH, async (c) => {
    const body = JwksResponseSchema.parse(await tokens.jwks());
    c.header('cache-control', 'public, max-age=300');
    return c.json(body);
  });
}
