/**
 * @module cli/service
 * The service calls the CLI makes beyond the contract's `API_ROUTES` (which `createPlatformClient`
 * covers): `GET /v0/whoami`, the hosted upload, versions and rollback, environment variables, delivery replay, schedules and queues, and the developer area of
 * the client API (`/client/v1/me`, `/client/v1/apps`). Failures throw the typed client's
 * `PlatformClientError`, so every command reports them the same way.
 */
import { ErrorBodySchema, PlatformClientError, type ErrorGroupDetail, type ErrorGroupPage } from '@platform/sdk';

export type Target = 'preview' | 'production';

export interface Whoami {
  kind: 'member' | 'install' | 'interaction' | 'deploy' | 'agent' | 'client';
  workspaceId?: string;
  memberId?: string;
  appId?: string;
  role?: string;
  previewOnly?: boolean;
}

export interface AppSummary {
  id: string;
  slug: string;
  name: string;
  hosting: 'self' | 'platform';
  development?: boolean;
}

export interface CreatedApp {
  app: AppSummary;
  clientId: string;
  clientSecret: string;
  signingSecret: string;
}

export interface EnvVar {
  key: string;
  secret: boolean;
  value?: string;
  updatedAt: string;
}

export interface VersionRecord {
  appId: string;
  version: number;
  target: Target;
  manifestSha256: string;
  created: boolean;
  createdAt: string;
  added: Array<{ kind: string; detail: string }>;
  manifest?: Record<string, unknown>;
  /** `sourceMap`: the map uploaded with it, null without one. */
  bundle?: { sha256: string; bytes: number; sourceMap?: { sha256: string; bytes: number } | null };
  /** The earlier version a rollback copies. */
  rollbackOf?: number | null;
}

export interface VersionSummary {
  version: number;
  target: Target;
  manifestSha256: string;
  createdAt: string;
  bundle: { sha256: string; bytes: number } | null;
  added: Array<{ kind: string; detail: string }>;
  rollbackOf: number | null;
  live: boolean;
}

export interface ReplayAnswer {
  status: number | null;
  error: string | null;
  response: string | null;
  responseTruncated: boolean;
}

export interface ReplayResult {
  deliveryId: string;
  replayId: string;
  class: 'lifecycle' | 'interactive';
  type: string;
  installId: string;
  /** `platform`: a runtime node ran it, and its log lines are the app's (older services do not say). */
  hosting?: 'platform' | 'self';
  version: number;
  recorded: ReplayAnswer & { version: number | null; attempt: number | null };
  replayed: ReplayAnswer & { durationMs: number };
}

export interface ServiceOptions {
  readonly url: string;
  readonly apiKey: string;
  readonly fetch?: typeof fetch;
}

interface Call {
  method: string;
  path: string;
  json?: unknown;
  body?: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

/** Turns an error answer into the client's error: the spec's tagged body when there is one. */
export async function failure(res: Response, what: string): Promise<PlatformClientError> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body = ErrorBodySchema.safeParse(json);
  if (body.success) return new PlatformClientError(body.data._tag, res.status, body.data.message, { body: json, path: body.data.path });
  return new PlatformClientError('PlatformClientHttpError', res.status, `${what} answered ${res.status}`, { body: json ?? text.slice(0, 1000) });
}

/**
 * @example
 * const service = createServiceClient({ url: 'http://localhost:4000', apiKey: 'platkey_…' });
 * const me = await service.whoami();
 */
export function createServiceClient(options: ServiceOptions) {
  const doFetch = options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));

  async function call<T>(c: Call): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${options.apiKey}`, ...c.headers };
    let body: RequestInit['body'] = c.body;
    if (c.json !== undefined) {
      body = JSON.stringify(c.json);
      headers['content-type'] = 'application/json';
    }
    let res: Response;
    try {
      // `duplex: 'half'` is how fetch takes a streamed request body.
      res = await doFetch(options.url + c.path, { method: c.method, headers, body, ...(c.body === undefined ? {} : { duplex: 'half' }) } as RequestInit);
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause;
      throw new PlatformClientError('PlatformClientNetworkError', 0, `Could not reach ${options.url}: ${cause?.message ?? (err as Error).message}`, { cause: err });
    }
    if (!res.ok) throw await failure(res, `${c.method} ${c.path}`);
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }

  const app = (appId: string) => `/v0/apps/${encodeURIComponent(appId)}`;

  return {
    whoami: () => call<Whoami>({ method: 'GET', path: '/v0/whoami' }),
    me: () => call<{ member: { id: string; name: string; role: string }; workspace: { id: string; name: string } }>({ method: 'GET', path: '/client/v1/me' }),
    listApps: async () => (await call<{ items: AppSummary[] }>({ method: 'GET', path: '/client/v1/apps' })).items,
    createApp: (input: { name: string; slug: string; hosting: 'self' | 'platform'; endpoint?: { url: string } }) =>
      call<CreatedApp>({ method: 'POST', path: '/client/v1/apps', json: input }),
    /** `POST /v0/assets`: an image (the app's icon); the service reads its type from the bytes. */
    uploadAsset: (bytes: Uint8Array) =>
      call<{ asset: { id: string; contentType: string; bytes: number; width: number; height: number; url: string } }>({
        method: 'POST', path: '/v0/assets', body: bytes as Uint8Array<ArrayBuffer>, headers: { 'content-type': 'application/octet-stream' },
      }),
    /**
     * `POST /v0/apps/{app_id}/versions?target=`: the bundle streamed as the body, as `application/javascript`, or with
     * its source map as `multipart/form-data` (upload-body.ts); `icon`: the uploaded icon's asset id.
     */
    uploadBundle: (appId: string, target: Target, body: ReadableStream<Uint8Array>, bytes: number, contentType = 'application/javascript', icon: string | null = null,
      rollout: number | null = null) =>
      call<VersionRecord>({
        method: 'POST', path: `${app(appId)}/versions?target=${target}${icon === null ? '' : `&icon=${icon}`}${rollout === null ? '' : `&rollout=${rollout}`}`, body,
        headers: { 'content-type': contentType, 'content-length': String(bytes) },
      }),
    /** `POST /v0/apps/check/bundles`: the bundle checked as an upload would, before its app exists. */
    checkBundle: (bytes: Uint8Array<ArrayBuffer>, contentType = 'application/javascript', icon: string | null = null) =>
      call<{ sha256: string; manifest: Record<string, unknown> }>({
        method: 'POST', path: `/v0/apps/check/bundles${icon === null ? '' : `?icon=${icon}`}`, body: bytes, headers: { 'content-type': contentType },
      }),
    listEnv: (appId: string, target: Target) => call<{ target: Target; items: EnvVar[] }>({ method: 'GET', path: `${app(appId)}/env/${target}` }),
    setEnv: (appId: string, target: Target, key: string, input: { value: string; secret?: boolean }) =>
      call<EnvVar>({ method: 'PUT', path: `${app(appId)}/env/${target}/${encodeURIComponent(key)}`, json: input }),
    deleteEnv: (appId: string, target: Target, key: string) =>
      call<void>({ method: 'DELETE', path: `${app(appId)}/env/${target}/${encodeURIComponent(key)}` }),
    /** `GET /v0/apps/{app_id}/versions`: newest first. */
    listVersions: (appId: string, query: { limit?: number; before?: number } = {}) => {
      const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
      return call<{ appId: string; items: VersionSummary[]; nextBefore: number | null }>({ method: 'GET', path: `${app(appId)}/versions${params.size > 0 ? `?${params}` : ''}` });
    },
    /** `GET /v0/apps/{app_id}/errors`: the app's error groups, last seen first. */
    listErrorGroups: (appId: string, query: { version?: number; level?: string; limit?: number; cursor?: string } = {}) => {
      const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
      return call<ErrorGroupPage>({ method: 'GET', path: `${app(appId)}/errors${params.size > 0 ? `?${params}` : ''}` });
    },
    /** `GET /v0/apps/{app_id}/errors/{group_id}`: one group with its newest examples. */
    getErrorGroup: (appId: string, groupId: string) => call<ErrorGroupDetail>({ method: 'GET', path: `${app(appId)}/errors/${encodeURIComponent(groupId)}` }),
    /** `/v0/apps/{app_id}/log-drains`: the app's drains; adding or rotating answers the signing secret, once. */
    listLogDrains: async (appId: string) => (await call<{ items: LogDrain[] }>({ method: 'GET', path: `${app(appId)}/log-drains` })).items,
    addLogDrain: (appId: string, url: string) => call<{ drain: LogDrain; secret: string }>({ method: 'POST', path: `${app(appId)}/log-drains`, json: { url } }),
    removeLogDrain: (appId: string, drainId: string) => call<void>({ method: 'DELETE', path: `${app(appId)}/log-drains/${encodeURIComponent(drainId)}` }),
    logDrainAction: <A extends 'test' | 'rotate-secret' | 'enable'>(appId: string, drainId: string, action: A) =>
      call<A extends 'test' ? LogDrainTest : A extends 'enable' ? LogDrain : { drain: LogDrain; secret: string }>({
        method: 'POST', path: `${app(appId)}/log-drains/${encodeURIComponent(drainId)}/${action}`,
      }),
    /** `POST /v0/apps/{app_id}/deliveries/{delivery_id}/replay`: read-only, against `version` (default: the latest preview). */
    replay: (appId: string, deliveryId: string, version?: number) =>
      call<ReplayResult>({ method: 'POST', path: `${app(appId)}/deliveries/${encodeURIComponent(deliveryId)}/replay`, json: version === undefined ? {} : { version } }),
    /** `GET /v0/apps/{app_id}/schedules`: every install's schedules with next and last firing. */
    listSchedules: async (appId: string) => (await call<{ items: ScheduleState[] }>({ method: 'GET', path: `${app(appId)}/schedules` })).items,
    /** `POST /v0/apps/{app_id}/schedules/{name}/run`: a firing now (default: the development install). */
    runSchedule: (appId: string, name: string, installId?: string) =>
      call<{ id: string; installId: string; dueAt: string }>({ method: 'POST', path: `${app(appId)}/schedules/${encodeURIComponent(name)}/run`, json: installId === undefined ? {} : { installId } }),
    /** `GET /v0/apps/{app_id}/queue`: depth, oldest age and dead letters per install. */
    queueOverview: (appId: string) => call<QueueOverview>({ method: 'GET', path: `${app(appId)}/queue` }),
    /** `POST /v0/apps/{app_id}/queue/messages`: messages to an install's queue (default: the development install). */
    sendQueueMessages: (appId: string, messages: Array<{ body: unknown; delaySeconds?: number; key?: string }>, installId?: string) =>
      call<{ messages: Array<{ id: string; deduplicated: boolean; deliverAt: string }> }>({
        method: 'POST', path: `${app(appId)}/queue/messages`, json: { ...(installId === undefined ? {} : { installId }), messages },
      }),
    /** `POST /v0/apps/{app_id}/storage/{install}/{op}`: the app's storage (docs/decisions/storage.md). */
    storage: <T>(appId: string, install: 'dev' | 'workspace', op: 'get' | 'list' | 'commit', body: unknown) =>
      call<T>({ method: 'POST', path: `${app(appId)}/storage/${install}/${op}`, json: body }),
    /** `PUT /v0/apps/{app_id}/manifest?rollout=`: a self-hosted app's production version to a share of its installs. */
    syncManifestRollout: (appId: string, manifest: Record<string, unknown>, rollout: number) =>
      call<VersionRecord>({ method: 'PUT', path: `${app(appId)}/manifest?rollout=${rollout}`, json: { manifest, target: 'production' } }),
    /** `GET /v0/apps/{app_id}/rollout` and `POST …/rollout/{advance,promote,abort}` (docs/decisions/rollouts.md). */
    rollout: (appId: string) => call<RolloutStatus>({ method: 'GET', path: `${app(appId)}/rollout` }),
    rolloutAction: (appId: string, action: 'advance' | 'promote' | 'abort', json: Record<string, unknown> = {}) =>
      call<RolloutStatus>({ method: 'POST', path: `${app(appId)}/rollout/${action}`, json }),
    /** `POST /v0/apps/{app_id}/rollback`: production back to `version` (default: the one before the live one). */
    rollback: (appId: string, version?: number) =>
      call<VersionRecord>({ method: 'POST', path: `${app(appId)}/rollback`, json: version === undefined ? {} : { version } }),
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;

/** `GET /v0/apps/{app_id}/log-drains` items. */
export interface LogDrain {
  id: string;
  appId: string;
  url: string;
  state: 'active' | 'disabled';
  disabledReason: string | null;
  failures: number;
  failingSince: string | null;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  lastDeliveredAt: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

export interface LogDrainTest { delivered: boolean; status: number | null; durationMs: number; error: string | null; batch: { type: 'app.logs'; drainId: string; appId: string; test: boolean; lines: unknown[] } }

/** `GET /v0/apps/{app_id}/rollout`: the running rollout, else the newest finished one. */
export interface RolloutStatus {
  id: string;
  appId: string;
  version: number;
  percent: number;
  status: 'running' | 'promoted' | 'aborted';
  reason: string | null;
  abortedBy: 'author' | 'platform' | null;
  startedAt: string;
  endedAt: string | null;
  installs: { moved: number; byVersion: Array<{ version: number; installs: number }> };
  signals: { new: { outcomes: number; failures: number }; old: { outcomes: number; failures: number }; newErrorGroups: number };
  verdict: { worse: boolean; newLower: number | null; baseline: number | null; minOutcomes: number };
}

export interface ScheduleState {
  installId: string;
  installKind: 'workspace' | 'dev';
  name: string;
  cron: string;
  timeZone: string;
  nextDueAt: string | null;
  lastDueAt: string | null;
  lastFiredAt: string | null;
  lastOutcome: string | null;
  skipped: number;
}

export interface QueueOverview {
  items: Array<{ installId: string; installKind: 'workspace' | 'dev'; depth: number; oldestAgeSeconds: number | null; deadLetters: number }>;
  deadLetters: Array<{ id: string; installId: string; createdAt: string; attempts: number; lastError: string | null }>;
}
