/**
 * @module apps/apps/schemas
 * Wire shapes of apps in the developer area (client API): creating one, reading it, its
 * credentials and their rotation, and the workspace's app setting.
 */
import { z } from 'zod';
import { AppSlugSchema, EndpointUrlSchema } from '@platform/sdk';
import { Id, Timestamp, nameText } from '../../core/http/common.ts';

export const APP_NAME_MAX = 80;

export const Hosting = z.enum(['self', 'platform']);

export const App = z
  .object({
    id: Id,
    workspaceId: Id,
    ownerMemberId: Id,
    slug: z.string(),
    name: z.string(),
    hosting: Hosting,
    endpoint: z.object({ url: z.string() }).nullable(),
    private: z.boolean().describe('Installable only in its own workspace; an MCP host needs no verified domain'),
    development: z.boolean().describe('A member\'s development app (PUT /v0/apps/dev)'),
    clientId: z.string(),
    icon: z.string().nullable().describe('The asset id of the app\'s icon (its production manifest\'s `icon`), served at `/assets/{id}`; null: none'),
    createdAt: Timestamp,
  })
  .meta({ id: 'App' });
export type App = z.output<typeof App>;

export const CreateAppBody = z.strictObject({
  name: nameText(APP_NAME_MAX),
  slug: AppSlugSchema,
  hosting: Hosting,
  endpoint: z.strictObject({ url: EndpointUrlSchema }).optional(),
  private: z.boolean().optional(),
});
export type CreateAppInput = z.output<typeof CreateAppBody>;

export const CreateAppResponse = z.object({
  app: App,
  clientId: z.string(),
  clientSecret: z.string().describe('Shown once; only its hash is kept'),
  signingSecret: z.string().describe('`whsec_…`: verifies the signatures of deliveries'),
});

export const AppResponse = z.object({ app: App });
export const AppList = z.object({ items: z.array(App) });

export const AppCredentials = z.object({
  clientId: z.string(),
  signingSecret: z.string(),
  previousSigningSecret: z.object({ secret: z.string(), expiresAt: Timestamp }).nullable()
    .describe('After a rotation, deliveries carry a signature with this secret too until it expires'),
});

export const ClientSecretResponse = z.object({ clientId: z.string(), clientSecret: z.string().describe('Shown once') });

export const AppSettings = z.object({ appsEnabled: z.boolean() }).meta({ id: 'AppSettings' });
export const AppSettingsBody = z.strictObject({ appsEnabled: z.boolean() });
