/**
 * @module apps/apps/reserved
 * App names and slugs nobody may take (`reserved-name`), compared case-insensitively. Slugs that
 * start with the service's own name are refused by the manifest rule itself.
 */
export const RESERVED_APP_NAMES: readonly string[] = [
  'admin', 'administrator', 'api', 'app', 'apps', 'bot', 'console', 'developer', 'developers', 'help', 'internal',
  'moderator', 'official', 'owner', 'root', 'security', 'settings', 'staff', 'support', 'system', 'www',
];
