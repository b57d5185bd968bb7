/**
 * @module cli/read-manifest
 * Reads the manifest a built bundle computes, as the service will: the bundle is imported in a
 * child `node` process (its top-level code runs there, not in the CLI, with an empty environment
 * so it sees none of the developer's secrets) and its default export's `manifest` comes back as
 * JSON. Then `validateManifest` runs locally, without what only the service knows (recorded
 * slug, verified domains, env values), so those rules are left to the upload.
 */
import { execFile } from 'node:child_process';
import { validateManifest, type ManifestError } from '@platform/sdk';

const LOAD_TIMEOUT_MS = 30_000;

// Runs in the child; prints one JSON object: { manifest } or { error }. The bundle is imported
// from a data: URL, so its file name and the nearest package.json's "type" do not decide whether
// Node reads it as an ES module; the URL is put back as the file name in stack traces.
const CHILD_SCRIPT = `
import { readFileSync } from 'node:fs';
const [file, shown] = process.argv.slice(1);
const url = 'data:text/javascript;base64,' + readFileSync(file).toString('base64');
// The message, then only the frames inside the bundle (not Node's loader or this script).
const clean = (text) => String(text).split(url).join(shown).split('\\n')
  .filter((line, i) => i === 0 || !/^\\s+at /.test(line) || line.includes(shown)).join('\\n');
let out;
try {
  const mod = await import(url);
  const app = mod.default;
  if (app === null || typeof app !== 'object' || typeof app.fetch !== 'function' || app.manifest === null || typeof app.manifest !== 'object') {
    out = { error: "The bundle's default export is not an app: export default defineApp({ ... }) (an object with fetch and manifest)" };
  } else {
    out = { manifest: JSON.parse(JSON.stringify(app.manifest)) };
  }
} catch (err) {
  out = { error: 'The bundle did not load: ' + clean(err && err.stack ? err.stack : err) };
}
process.stdout.write(JSON.stringify(out));
process.exit(0);
`;

export class BundleLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleLoadError';
  }
}

/**
 * @example const manifest = await readBundleManifest('/abs/.platform/bundle.js', '.platform/bundle.js');
 */
export function readBundleManifest(path: string, shownAs: string = path): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', CHILD_SCRIPT, path, shownAs], {
      env: {}, timeout: LOAD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, windowsHide: true,
    }, (err, stdout, stderr) => {
      let answer: { manifest?: Record<string, unknown>; error?: string } | undefined;
      try {
        answer = JSON.parse(stdout) as typeof answer;
      } catch {
        answer = undefined;
      }
      if (answer?.manifest !== undefined) return resolve(answer.manifest);
      if (answer?.error !== undefined) return reject(new BundleLoadError(answer.error));
      if (err !== null && err.killed) return reject(new BundleLoadError(`The bundle did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s`));
      reject(new BundleLoadError(`Reading the bundle's manifest failed${stderr.trim() === '' ? '' : `:\n${stderr.trim()}`}`));
    });
  });
}

export type LocalCheck = { valid: true; manifest: Record<string, unknown> } | { valid: false; error: ManifestError };

/** `validateManifest` without service context. */
export function checkManifestLocally(manifest: unknown): LocalCheck {
  const result = validateManifest(manifest);
  return result.valid ? { valid: true, manifest: result.manifest as unknown as Record<string, unknown> } : result;
}
