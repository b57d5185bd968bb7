/**
 * @module cli/project
 * The project a command works on (the current directory): its entry module and its
 * `platform.json`, which records the app it deploys to (`{ appId, slug, url }`) so later commands
 * need no `--app`. Which app: `--app` (an id, or a slug looked up among your apps), else
 * `platform.json` when it was written for this service, else the manifest's slug looked up with
 * `GET /client/v1/apps`; `--create` creates it (`POST /client/v1/apps`) when none has that slug.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { UsageError } from './args.ts';
import type { Session } from './config-store.ts';
import { CommandError, note, print } from './output.ts';
import type { CreatedApp, ServiceClient } from './service.ts';

/** Entry modules looked for when none is given (the same as `platform dev`). */
export const DEFAULT_ENTRIES = ['app.ts', 'app.mjs', 'app.js'];
export const PROJECT_FILE = 'platform.json';

/**
 * @example findEntry(undefined, process.cwd()) // 'app.ts'
 */
export function findEntry(given: string | undefined, cwd: string): string {
  if (given !== undefined) {
    if (!existsSync(resolve(cwd, given))) throw new UsageError(`No such file: ${given}`);
    return given;
  }
  const found = DEFAULT_ENTRIES.find((name) => existsSync(resolve(cwd, name)));
  if (found === undefined) throw new UsageError(`No app entry found: give its path (platform build src/app.ts), or name it ${DEFAULT_ENTRIES.join(', ')}`);
  return found;
}

const ProjectFileSchema = z.object({ appId: z.string().min(1), slug: z.string().optional(), url: z.string().optional() });
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

export async function readProjectFile(cwd: string): Promise<ProjectFile | null> {
  const file = join(cwd, PROJECT_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let parsed;
  try {
    parsed = ProjectFileSchema.safeParse(JSON.parse(text));
  } catch {
    throw new CommandError(`${PROJECT_FILE} is not JSON`);
  }
  if (!parsed.success) throw new CommandError(`${PROJECT_FILE} does not record an app ({ "appId": "app_…" })`);
  return parsed.data;
}

export async function writeProjectFile(cwd: string, project: ProjectFile): Promise<void> {
  await writeFile(join(cwd, PROJECT_FILE), `${JSON.stringify(project, null, 2)}\n`);
}

/** What the manifest tells about the app, enough to find or create it. */
export interface AppIdentity {
  name: string;
  slug: string;
  hosting: 'self' | 'platform';
  endpoint?: { url: string } | undefined;
}

export interface ResolveAppOptions {
  cwd: string;
  session: Session;
  service: ServiceClient;
  /** `--app`: an app id (`app_…`) or a slug. */
  app?: string | undefined;
  /** The manifest's identity (deploy); without it, only `--app` and platform.json can answer. */
  identity?: AppIdentity | undefined;
  create?: boolean | undefined;
  /** Runs before the app is created, and may refuse (deploy checks its bundle here): nothing is created then. */
  beforeCreate?: (() => Promise<void>) | undefined;
}

export interface ResolvedApp {
  appId: string;
  slug: string | undefined;
  created: CreatedApp | null;
}

const isAppId = (value: string) => value.startsWith('app_');
// Deploy and agent builder tokens cannot use the client API, so they cannot look apps up by slug.
const canListApps = (apiKey: string) => !apiKey.startsWith('platdep_') && !apiKey.startsWith('platagt_');

async function lookUp(options: ResolveAppOptions, slug: string): Promise<ResolvedApp | null> {
  if (!canListApps(options.session.apiKey)) {
    throw new CommandError(`This credential cannot look apps up by slug: give --app <app id>, or keep ${PROJECT_FILE}`);
  }
  const app = (await options.service.listApps()).find((a) => a.slug === slug);
  return app === undefined ? null : { appId: app.id, slug: app.slug, created: null };
}

function printCreated(created: CreatedApp): void {
  print(`Created app ${created.app.name} (${created.app.slug}, ${created.app.id}), hosting ${created.app.hosting}`);
  print('Its credentials (the client secret is shown this once: keep it somewhere safe):');
  print(`  client id       ${created.clientId}`);
  print(`  client secret   ${created.clientSecret}`);
  print(`  signing secret  ${created.signingSecret}`);
}

/**
 * Finds the app a command acts on; records it in platform.json once found by slug or created.
 * @example const { appId } = await resolveApp({ cwd, session, service, identity: { name, slug, hosting } });
 */
export async function resolveApp(options: ResolveAppOptions): Promise<ResolvedApp> {
  const { cwd, session } = options;
  const remember = (resolved: ResolvedApp) => writeProjectFile(cwd, { appId: resolved.appId, slug: resolved.slug, url: session.url });

  if (options.app !== undefined) {
    if (isAppId(options.app)) return { appId: options.app, slug: undefined, created: null };
    const found = await lookUp(options, options.app);
    if (found === null) throw new CommandError(`None of your apps on ${session.url} has the slug "${options.app}"`);
    return found;
  }

  const project = await readProjectFile(cwd);
  if (project !== null) {
    if (project.url === undefined || project.url === session.url) {
      if (options.identity !== undefined && project.slug !== undefined && project.slug !== options.identity.slug) {
        note(`Note: ${PROJECT_FILE} records the app "${project.slug}" but the manifest's slug is "${options.identity.slug}"; using ${project.appId} from ${PROJECT_FILE}.`);
      }
      return { appId: project.appId, slug: project.slug, created: null };
    }
    note(`Note: ${PROJECT_FILE} records an app on ${project.url}, not ${session.url}; looking the app up by its slug.`);
  }

  const identity = options.identity;
  if (identity === undefined) throw new CommandError(`Which app? Give --app <app id or slug>, or deploy once from this directory (it records the app in ${PROJECT_FILE})`);
  const found = await lookUp(options, identity.slug);
  if (found !== null) {
    await remember(found);
    return found;
  }
  if (options.create !== true) {
    throw new CommandError(`None of your apps on ${session.url} has the slug "${identity.slug}". Add --create to create it, or give --app <app id>`);
  }
  await options.beforeCreate?.();
  const created = await options.service.createApp({
    name: identity.name, slug: identity.slug, hosting: identity.hosting,
    ...(identity.endpoint === undefined ? {} : { endpoint: { url: identity.endpoint.url } }),
  });
  printCreated(created);
  const resolved = { appId: created.app.id, slug: created.app.slug, created };
  await remember(resolved);
  return resolved;
}
