/**
 * @module apps/rollouts/schemas
 * Wire shapes of rollouts (our extension of the app API): the rollout as `platform rollout status`
 * and the console show it, and the bodies of advance and abort.
 */
import { z } from 'zod';

export const ROLLOUT_PERCENT = z.int().min(1).max(100);

const SideSchema = z.object({
  outcomes: z.int().describe('Request lines and delivery attempts counted on this side since the rollout started'),
  failures: z.int().describe('Of those, the failed ones (an outcome other than ok, a 5xx, a delivery attempt with an error)'),
});

export const RolloutSchema = z.object({
  id: z.string(),
  appId: z.string(),
  version: z.int().describe('The version being rolled out'),
  percent: z.int().describe('The share of the installs that may take the version without a new consent that run it (100 once promoted)'),
  status: z.enum(['running', 'promoted', 'aborted']),
  reason: z.string().nullable().describe('Why it was aborted, else null'),
  abortedBy: z.enum(['author', 'platform']).nullable().describe('platform: the new version was worse beyond the bound (docs/decisions/rollouts.md)'),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  installs: z.object({
    moved: z.int().describe('Installs the rollout moved that run the version now'),
    byVersion: z.array(z.object({ version: z.int(), installs: z.int() })).describe('The app\'s live workspace installs by the version they run'),
  }),
  signals: z.object({
    new: SideSchema.describe('The installs the rollout moved (request lines of the version)'),
    old: SideSchema.describe('Every other install and the app-level routes'),
    newErrorGroups: z.int().describe('Error groups first seen on the version'),
  }),
  verdict: z.object({
    worse: z.boolean(),
    newLower: z.number().nullable().describe('The lower bound of the new side\'s failure rate (99 % Wilson); null below the minimum sample'),
    baseline: z.number().nullable().describe('What it is compared with: the old side\'s upper bound, or 0.5 while the old side is below the minimum sample'),
    minOutcomes: z.int(),
  }),
}).meta({ id: 'Rollout' });
export type Rollout = z.input<typeof RolloutSchema>;

export const AdvanceRequestSchema = z.strictObject({
  percent: ROLLOUT_PERCENT.describe('The new share, above the current one'),
});

export const AbortRequestSchema = z.strictObject({
  reason: z.string().min(1).max(500).optional().describe('Why (shown in the console and the status)'),
});
