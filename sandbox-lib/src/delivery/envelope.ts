/**
 * @module delivery/envelope
 * The delivery envelope (every delivery body). Read by apps, so lenient: unknown fields are
 * ignored and unknown closed-list values read as the most neutral option. `installToken` is
 * absent in deliveries to hosted apps: the runtime removes it and adds tokens to outbound calls.
 */
import { z } from 'zod';
import { RESPONSE } from '../wire/modes.ts';
import { IdSchema, TimestampSchema } from '../wire/primitives.ts';
import { AppSlugSchema } from '../manifest/model/schemas.ts';
import { ActorSchema } from './common.ts';
import { INSTALL_KINDS } from './constants.ts';

export { INSTALL_KINDS };

export const EnvelopeAppSchema = z.looseObject({ id: IdSchema, slug: AppSlugSchema, version: z.int().min(1) });

export const EnvelopeInstallSchema = z.looseObject({
  id: IdSchema,
  workspaceId: IdSchema,
  kind: RESPONSE.closed(INSTALL_KINDS, 'workspace'),
  config: z.record(z.string(), z.unknown()).optional(),
});

export const InstallTokenSchema = z.looseObject({ token: z.string().min(1), expiresAt: TimestampSchema });

/**
 * An envelope whose `type` and `data` are read by the given schemas.
 * @example const BlockRenderEnvelope = envelopeSchema(z.literal('block.render'), BlockRenderDataSchema);
 */
export function envelopeSchema<T extends z.ZodType<string>, D extends z.ZodType>(type: T, data: D) {
  return z.looseObject({
    id: z.string().min(1),
    type,
    timestamp: TimestampSchema,
    app: EnvelopeAppSchema,
    install: EnvelopeInstallSchema,
    installToken: InstallTokenSchema.optional(),
    actor: ActorSchema.optional(),
    locale: z.string().min(1),
    timeZone: z.string().min(1),
    data,
  });
}

/** Any envelope: `data` is an object whose shape depends on `type`. */
export const EnvelopeSchema = envelopeSchema(z.string().min(1), z.record(z.string(), z.unknown()));

export type Envelope<D = Record<string, unknown>, T extends string = string> = Omit<z.infer<typeof EnvelopeSchema>, 'type' | 'data'> & { type: T; data: D };
