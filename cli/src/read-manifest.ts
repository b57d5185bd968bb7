/**
 * @module cli/read-manifest
 * Reads the manifest a built bundle computes, as the service will: the bundle is imported in a
 * child `node` process (its top-level code runs there, not in the CLI, with an empty environment
 * so it sees none of the developer's secrets) and its default export's `manifest` comes back as
 * JSON. Then `validateManifest` runs locally, without what only the service knows (recorded
 * slug, verified domains, env values), so those rules are left to the upload.
 *
 * A bundle that throws while it loads says where in the app's own files: the child runs with
 * Node's source maps on, reading the map beside the bundle, and names the files as the project does.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { validateManifest, type ManifestError } from '@platform/sdk';

const LOAD_TIMEOUT_MS = 30_000;

// Runs in the child; prints one JSON object: { manifest } or { error }. The bundle is imported
// from an .mjs copy beside it (so the nearest package.json's "type" does not decide whether Node
// reads it as an ES module, and its sourceMappingURL finds the map beside it), with Node's source
// maps on: a stack names the app's files. Their paths are shown relative to the project; the
// copy's name is put back as the bundle's.
const CHILD_SCRIPT = `
import { pathToFileURL } from 'node:url';
const [file, shown] = process.argv.slice(1);
process.setSourceMapsEnabled(true);
const url = pathToFileURL(file).href;
const cwd = process.cwd() + '/';
// The message, then only the app's frames (not Node's loader or this script).
const clean = (text) => String(text).split(url).join(shown).split(file).join(shown).split('file://' + cwd).join('').split(cwd).join('').split('\\n')
  .filter((line, i) => i === 0 || !/^\\s+at /.test(line) || !/(\\(|at (async )?)(node:|\\[eval)/.test(line)).join('\\n');
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
export async function readBundleManifest(path: string, shownAs: string = path): Promise<Record<string, unknown>> {
  // Beside the bundle (its map is found from there), under a name no build writes.
  const copy = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.mjs`);
  await copyFile(path, copy);
  try {
    return await readIn(copy, shownAs);
  } finally {
    await rm(copy, { force: true });
  }
}

function readIn(path: string, shownAs: string): Promise<Record<string, unknown>> {
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
