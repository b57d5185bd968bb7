/**
 * @module console/kit/env
 * What a console request carries once its session is checked: the member's API client and who they are.
 */
import type { Api } from './api.ts';
import type { Me } from './layout.ts';

export interface ConsoleEnv {
  Variables: { api: Api; me: Me };
}
