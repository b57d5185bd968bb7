/**
 * @module node/config
 * The one place the Node adapter reads the process environment: the default `env` of `serve`,
 * a snapshot taken when the server starts.
 */

/** The process environment as the app's `env` (a copy: later changes are not seen). */
export function processEnv(): Readonly<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return Object.freeze(env);
}
