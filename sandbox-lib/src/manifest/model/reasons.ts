/**
 * @module manifest/model/reasons
 * The `reason` values of `PlatformAppManifestInvalidError` and `PlatformAppPatternInvalidError`.
 * `spec` rows are the spec's table; `ours` rows cover what the spec leaves open (a schema-level
 * problem, a count over a manifest limit) and are recorded in docs/decisions/contract.md.
 */

export const MANIFEST_INVALID_REASONS = {
  duplicate: { source: 'spec', cause: 'Two blocks, kinds, actions, patterns, message actions, commands, or options within one command share an id.' },
  'command-option-choices': { source: 'spec', cause: '`choice` option without `choices`, or `choices` on another type.' },
  'command-option-object-kind': { source: 'spec', cause: '`appObject` option with missing or unknown `objectKind`, or `objectKind` on another type.' },
  'command-option-order': { source: 'spec', cause: 'Required option after an optional one.' },
  'endpoint-required': { source: 'spec', cause: 'Self-hosted app without endpoint.' },
  'endpoint-unexpected': { source: 'spec', cause: 'Hosted app with an endpoint.' },
  'hosting-mismatch': { source: 'spec', cause: "Hosting differs from the app's recorded hosting." },
  'slug-mismatch': { source: 'spec', cause: "Slug differs from the app's." },
  'scope-undeclared': { source: 'spec', cause: 'Something needs a scope the manifest lacks.' },
  'too-many-patterns': { source: 'spec', cause: 'Too many patterns.' },
  'public-suffix-host': { source: 'spec', cause: 'Pattern or domain spanning a public suffix.' },
  'reserved-domain': { source: 'spec', cause: "Outbound host or domain under the service's own domains." },
  'reserved-name': { source: 'spec', cause: 'Reserved app name or slug.' },
  'env-missing': { source: 'spec', cause: 'Required environment variable has no value in the target environment.' },
  'schema-too-complex': { source: 'spec', cause: 'JSON Schema over budget, recursive, or using remote or dynamic references.' },
  'mcp-host-unverified': { source: 'spec', cause: 'MCP host not covered by a verified domain.' },
  invalid: { source: 'ours', cause: 'The manifest does not match its schema: wrong type, unknown field, identifier or text format, or a value out of range.' },
  'egress-unexpected': { source: 'ours', cause: 'Self-hosted app listing outbound hosts (only hosted apps have an egress allow-list).' },
  'too-many-blocks': { source: 'ours', cause: 'More than 50 blocks.' },
  'too-many-actions': { source: 'ours', cause: 'More than 64 actions in a block.' },
  'too-many-sections': { source: 'ours', cause: 'More than 32 sections in a block.' },
  'too-many-values': { source: 'ours', cause: 'More than 20 values in a choice input.' },
  'too-many-references': { source: 'ours', cause: 'More than 50 reference kinds.' },
  'too-many-message-actions': { source: 'ours', cause: 'More than 10 message actions.' },
  'too-many-commands': { source: 'ours', cause: 'More than 25 commands.' },
  'too-many-options': { source: 'ours', cause: 'More than 25 options in a command.' },
  'too-many-choices': { source: 'ours', cause: 'More than 25 choices in an option.' },
  'too-many-env': { source: 'ours', cause: 'More than 128 environment variables.' },
  'too-many-egress-hosts': { source: 'ours', cause: 'More than 50 outbound hosts.' },
  'too-many-domains': { source: 'ours', cause: 'More than 20 claimed domains.' },
  'too-many-schedules': { source: 'ours', cause: 'More than 20 schedules.' },
  'schedule-cron-invalid': { source: 'ours', cause: 'A schedule\'s cron expression does not parse, or never fires.' },
  'schedule-too-frequent': { source: 'ours', cause: 'A schedule would fire twice within one minute.' },
  'schedule-time-zone-unknown': { source: 'ours', cause: 'A schedule names a time zone that is not an IANA zone.' },
} as const satisfies Record<string, { source: 'spec' | 'ours'; cause: string }>;

export type ManifestInvalidReason = keyof typeof MANIFEST_INVALID_REASONS;

/** Reasons of `PlatformAppPatternInvalidError` (the spec names the rules, not the words: all ours). */
export const PATTERN_INVALID_REASONS = {
  malformed: 'Not of the form https://host/segment/:param (no query, fragment, port or credentials; params named once).',
  'not-https': 'The pattern is not an https:// URL.',
  'too-long': 'The pattern is over 2,048 characters.',
  'too-many-segments': 'The pattern has over 16 path segments.',
  'too-many-params': 'The pattern has over 8 named parameters.',
  'domain-unclaimed': "The pattern's host is not covered by a domain the manifest claims.",
} as const;

export type PatternInvalidReason = keyof typeof PATTERN_INVALID_REASONS;
