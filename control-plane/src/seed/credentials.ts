/**
 * @module seed/credentials
 * `DATA_DIR/credentials.json`: where the demo runs and the API keys to call it with. Keys are
 * stored hashed in the database and shown once, so this file is the only copy; when it is missing
 * or its keys no longer work (a fresh DATA_DIR against an old database), new keys are issued.
 */
import { readFile, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiKeysService } from '../workspace/api-keys/service.ts';
import type { DemoWorkspace, SeedResult } from './demo.ts';

export interface Credentials {
  controlPlaneUrl: string;
  runtimeUrl: string;
  clientApi: string;
  openapi: string;
  workspace: { id: string; name: string };
  owner: { id: string; name: string; apiKey: string };
  member: { id: string; name: string; apiKey: string };
  circles: { public: string; private: string };
  conversationId: string;
  /** Present when creating workspaces needs the operator token. */
  operatorToken?: string;
}

export const credentialsPath = (dataDir: string) => join(dataDir, 'credentials.json');

async function readStored(path: string): Promise<Partial<Credentials>> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Partial<Credentials>;
  } catch {
    return {};
  }
}

/** A key that still authenticates as `memberId`, or a fresh one issued for that member. */
async function workingKey(keys: ApiKeysService, stored: string | undefined, member: { id: string }, workspaceId: string): Promise<string> {
  if (stored !== undefined && (await keys.authenticate(stored))?.memberId === member.id) return stored;
  return (await keys.issue({ id: member.id, workspaceId }, 'npm start')).apiKey;
}

/**
 * Writes credentials.json (mode 0600, atomically) and returns what it wrote.
 *
 * @example
 * const creds = await writeCredentials({ dataDir, seed, apiKeys, urls: { controlPlane, runtime } });
 */
export async function writeCredentials(input: {
  dataDir: string;
  seed: SeedResult;
  apiKeys: ApiKeysService;
  urls: { controlPlane: string; runtime: string };
  operatorToken: string | null;
}): Promise<Credentials> {
  const path = credentialsPath(input.dataDir);
  const stored = await readStored(path);
  const demo: DemoWorkspace = input.seed.demo;
  const ws = demo.workspace.id;
  const ownerKey = input.seed.keys?.owner ?? await workingKey(input.apiKeys, stored.owner?.apiKey, demo.owner, ws);
  const memberKey = input.seed.keys?.member ?? await workingKey(input.apiKeys, stored.member?.apiKey, demo.member, ws);
  const credentials: Credentials = {
    controlPlaneUrl: input.urls.controlPlane,
    runtimeUrl: input.urls.runtime,
    clientApi: `${input.urls.controlPlane}/client/v1`,
    openapi: `${input.urls.controlPlane}/client/v1/openapi.json`,
    workspace: demo.workspace,
    owner: { ...demo.owner, apiKey: ownerKey },
    member: { ...demo.member, apiKey: memberKey },
    circles: demo.circles,
    conversationId: demo.conversationId,
    ...(input.operatorToken === null ? {} : { operatorToken: input.operatorToken }),
  };
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  await rename(tmp, path);
  return credentials;
}
