/**
 * @module main-all
 * `npm start`: the control plane in this process, one runtime node as a child process, the demo
 * workspace seeded once with its example app (installed, its cards posted), and the URLs and keys
 * printed and written to DATA_DIR/credentials.json, with a one-time sign-in link to the console.
 * Both processes get the hosted-app domain (`apps.localhost` unless HOSTED_APP_DOMAIN says otherwise).
 * Ctrl-C or SIGTERM stops both. With DATABASE_URL and REDIS_URL set the same code uses them.
 */
import { fileURLToPath } from 'node:url';
import { boot, configOrExit, onShutdownSignal } from './boot.ts';
import { runtimeChildEnv } from './core/config/config.ts';
import { spawnRuntimeNode, type RuntimeChild } from './core/runtime-node/child-process.ts';
import { writeCredentials, credentialsPath, type Credentials } from './seed/credentials.ts';
import { seedDemo } from './seed/demo.ts';
import { seedExampleApp } from './seed/examples.ts';
import { consoleSignInLink } from './seed/console-link.ts';
import { systemClock } from './core/clock/clock.ts';

/**
 * Hosted apps answer on `{slug}.apps.localhost:{RUNTIME_PORT}` out of the box (browsers and curl
 * send `*.localhost` to this machine), and an MCP server there needs no verified domain: the
 * control plane and the runtime node get the same domain (`runtimeChildEnv`).
 */
const START_HOSTED_APP_DOMAIN = 'apps.localhost';

const config = configOrExit({ HOSTED_APP_DOMAIN: START_HOSTED_APP_DOMAIN });
const booted = await boot(config, { credentialsFile: credentialsPath(config.dataDir) });
const { logger } = booted;
let runtime: RuntimeChild | undefined;
let stopping = false;

async function shutdown(reason: string, code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    logger.info({ reason }, 'shutting down');
    try {
      await Promise.all([runtime?.stop(), booted.close()]);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      code = 1;
    }
  }
  process.exit(code);
}

onShutdownSignal((signal) => shutdown(signal, 0));

try {
  const seed = await seedDemo({ db: booted.db, clock: systemClock });
  const { metricsUrl } = await booted.controlPlane.start();
  const entry = config.runtimeEntry ?? fileURLToPath(new URL('../../runtime/src/main.ts', import.meta.url));
  runtime = spawnRuntimeNode({ entry, env: runtimeChildEnv(config), url: config.runtimeUrl, logger });
  void runtime.exited.then(({ code, signal }) => {
    // Ctrl-C reaches the whole process group, so the child may stop (cleanly) a moment before our
    // own handler runs: that is a normal stop. Anything else is a crash and takes us down too.
    const clean = code === 0 || signal === 'SIGINT' || signal === 'SIGTERM';
    if (!stopping) void shutdown(`runtime node exited (code ${code}, signal ${signal})`, clean ? 0 : 1);
  });
  await runtime.ready;
  const credentials = await writeCredentials({
    dataDir: config.dataDir,
    seed,
    apiKeys: booted.controlPlane.workspace.apiKeys,
    urls: { controlPlane: config.publicUrl, runtime: config.runtimeUrl },
    operatorToken: config.workspaceCreation === 'open' ? null : config.operatorToken,
  });
  const request = (path: string, init: RequestInit) => Promise.resolve(booted.controlPlane.app.request(path, init));
  // The example app needs the runtime node (its bundle is evaluated there); a failure leaves the
  // platform running without it, and says why.
  await seedExampleApp({ request, ownerKey: credentials.owner.apiKey, demo: seed.demo })
    .catch((err: unknown) => logger.error({ err }, 'the example app could not be set up'));
  const link = await consoleSignInLink({ request, ownerKey: credentials.owner.apiKey, publicUrl: config.publicUrl, next: `/console/conversations/${seed.demo.conversationId}` });
  process.stdout.write(banner(credentials, seed.created, link, metricsUrl));
} catch (err) {
  logger.fatal({ err }, 'start failed');
  await shutdown('start failed', 1);
}

function banner(c: Credentials, created: boolean, consoleLink: string, metricsUrl: string): string {
  return [
    '',
    'Platform ready',
    `  console         ${consoleLink}`,
    `                  (signs you in as the owner once; later, sign in at ${c.controlPlaneUrl}/console with the owner API key)`,
    `  control plane   ${c.controlPlaneUrl}   (health ${c.controlPlaneUrl}/healthz)`,
    `  runtime node    ${c.runtimeUrl}   (health ${c.runtimeUrl}/healthz)`,
    `  metrics         ${metricsUrl}   (operator port, METRICS_PORT)`,
    ...(config.hostedAppDomain === null ? [] : [`  hosted apps     ${c.runtimeUrl}/apps/{slug}/ and http://{slug}.${config.hostedAppDomain}:${new URL(c.runtimeUrl).port}/`]),
    // Node's and Python's resolvers do not send *.localhost to loopback (curl and browsers do): the
    // path form is the address every MCP client reaches.
    `  MCP servers     ${c.runtimeUrl}/apps/{slug}/mcp   (any MCP client)`,
    `  client API      ${c.clientApi}   (OpenAPI ${c.openapi})`,
    `  database        ${config.embedded ? `PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}; redis ${config.redisUrl === null ? 'in-process stand-in' : 'REDIS_URL'}`,
    `  demo workspace  ${c.workspace.name} (${c.workspace.id})${created ? ', just created' : ''}`,
    `  owner API key   ${c.owner.apiKey}`,
    `  member API key  ${c.member.apiKey}`,
    ...(c.operatorToken === undefined ? [] : [`  operator token  ${c.operatorToken}`]),
    `  written to      ${credentialsPath(config.dataDir)}`,
    '',
    `  try: curl -H 'authorization: Bearer ${c.owner.apiKey}' ${c.clientApi}/circles`,
    '',
    '',
  ].join('\n');
}
