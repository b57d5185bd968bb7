/**
 * @module core/http/env
 * The Hono environment every control-plane route sees: the request id and the request's logger.
 */
import type { Logger } from '../log/logger.ts';

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
  };
}
