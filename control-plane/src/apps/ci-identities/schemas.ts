/**
 * @module apps/ci-identities/schemas
 * Wire shapes of trusted CI identities (client API) and of the CI token exchange (`/v0`).
 */
import { z } from 'zod';
import { Id, Timestamp } from '../../core/http/common.ts';

export const CI_IDENTITY_LIMITS = {
  perApp: 20,
  issuerChars: 512,
  audienceChars: 512,
  subjectPatternChars: 512,
  identityTokenChars: 16_384,
} as const;

// Printable ASCII: OIDC issuers, audiences and subjects in practice; no control characters.
const printable = (max: number) => z.string().min(1).max(max).regex(/^[\x20-\x7e]+$/, 'Use printable ASCII characters');

export const CiIdentityInfo = z
  .object({
    id: Id,
    appId: Id,
    issuer: z.string(),
    audience: z.string(),
    subjectPattern: z.string(),
    previewOnly: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: 'CiIdentity' });
export type CiIdentityInfo = z.output<typeof CiIdentityInfo>;

export const CreateCiIdentityBody = z.strictObject({
  issuer: printable(CI_IDENTITY_LIMITS.issuerChars).describe('OIDC issuer URL, exactly as in the tokens\' `iss` (https)'),
  audience: printable(CI_IDENTITY_LIMITS.audienceChars).describe('Audience the CI requests its token for (`aud`)'),
  subjectPattern: printable(CI_IDENTITY_LIMITS.subjectPatternChars)
    .refine((s) => /[^*]/.test(s), 'A pattern of only `*` would trust every subject of the issuer')
    .describe('Pattern for `sub`; `*` matches any run of characters'),
  previewOnly: z.boolean().default(false).describe('Deploy tokens from this identity may deploy previews only'),
});

export const CreateCiIdentityResponse = z.object({ identity: CiIdentityInfo });
export const CiIdentityList = z.object({ items: z.array(CiIdentityInfo) });

export const DeployTokenRequest = z.strictObject({
  identityToken: z.string().min(1).max(CI_IDENTITY_LIMITS.identityTokenChars).describe('The CI\'s OIDC identity token (a JWT)'),
  target: z.enum(['preview', 'production']).default('preview')
    .describe('`production` asks for a token that may also deploy production; the default is a preview-only token'),
});

export const DeployTokenResponse = z.object({
  token: z.string().describe('`platdep_…`, 15 minutes, for this app'),
  expiresAt: Timestamp,
  appId: Id,
  previewOnly: z.boolean(),
});
