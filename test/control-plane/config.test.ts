/**
 * Config: defaults, validation, generated secrets kept under DATA_DIR, and the production rules.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig, logFormatOf, runtimeChildEnv } from '@platform/control-plane';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'config-'));
});
afterEach(async () => rm(dataDir, { recursive: true, force: true }));

describe('config', () => {
  it('has the documented defaults for the embedded default', () => {
    const c = loadConfig({ DATA_DIR: dataDir });
    expect(c).toMatchObject({
      port: 4000, host: '127.0.0.1', publicUrl: 'http://localhost:4000', databaseUrl: null, redisUrl: null,
      logLevel: 'info', runtimePort: 4001, runtimeUrl: 'http://localhost:4001', nodeEnv: 'development',
      dev: true, embedded: true, workspaceCreation: 'open', operatorToken: null, dataDir,
    });
    expect(c.masterKey).toHaveLength(32);
  });

  it('generates the master key and runtime secret once under DATA_DIR (mode 0600) and reuses them', async () => {
    const a = loadConfig({ DATA_DIR: dataDir });
    const b = loadConfig({ DATA_DIR: dataDir });
    expect(b.masterKey.equals(a.masterKey)).toBe(true);
    expect(b.runtimeSecret).toBe(a.runtimeSecret);
    expect(Buffer.from((await readFile(join(dataDir, 'master.key'), 'utf8')).trim(), 'base64').equals(a.masterKey)).toBe(true);
    expect((await stat(join(dataDir, 'master.key'))).mode & 0o777).toBe(0o600);
  });

  it('takes values from the environment and treats empty ones as unset', () => {
    const key = randomBytes(32).toString('base64');
    const c = loadConfig({
      DATA_DIR: dataDir, PORT: '8080', PUBLIC_URL: 'https://cp.example.com/', MASTER_KEY: key, REDIS_URL: 'redis://r:6379',
      RUNTIME_URL: 'http://rt:9000', LOG_LEVEL: 'debug', OPERATOR_TOKEN: 'x'.repeat(20), DATABASE_URL: '',
    });
    expect(c).toMatchObject({ port: 8080, publicUrl: 'https://cp.example.com', redisUrl: 'redis://r:6379', runtimeUrl: 'http://rt:9000', logLevel: 'debug', embedded: true, workspaceCreation: 'operator' });
    expect(c.masterKey.equals(Buffer.from(key, 'base64'))).toBe(true);
  });

  it('rejects bad values, naming each variable', () => {
    try {
      loadConfig({ DATA_DIR: dataDir, PORT: 'eighty', LOG_LEVEL: 'loud', MASTER_KEY: randomBytes(16).toString('base64'), DATABASE_URL: 'mysql://x' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'LOG_LEVEL', 'MASTER_KEY', 'DATABASE_URL']) expect(text).toContain(name);
    }
  });

  it('the image copier\'s test switch: parsed outside production, refused in production', () => {
    expect(loadConfig({ DATA_DIR: dataDir, IMAGE_COPY_TEST_LOOPBACK_HOSTS: 'images.test, pics.test' }).imageCopy)
      .toEqual({ reuseMs: 3_600_000, testLoopbackHosts: ['images.test', 'pics.test'] });
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', IMAGE_COPY_TEST_LOOPBACK_HOSTS: 'images.test' }))
      .toThrow(/IMAGE_COPY_TEST_LOOPBACK_HOSTS: test only, never with NODE_ENV=production/);
  });

  it('with a shared database outside production: operator token generated, creation needs it', async () => {
    const c = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@h/db' });
    expect(c.embedded).toBe(false);
    expect(c.workspaceCreation).toBe('operator');
    expect(c.operatorToken).toBe((await readFile(join(dataDir, 'operator.token'), 'utf8')).trim());
  });

  it('in production with a shared database: refuses to generate secrets replicas must share', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@h/db', NODE_ENV: 'production' }))
      .toThrow(/MASTER_KEY[\s\S]*RUNTIME_SECRET/);
    const ok = loadConfig({
      DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@h/db', NODE_ENV: 'production',
      MASTER_KEY: randomBytes(32).toString('base64'), RUNTIME_SECRET: 'r'.repeat(32),
    });
    expect(ok).toMatchObject({ dev: false, operatorToken: null, workspaceCreation: 'operator' });
  });

  it.each([
    // LOG_FORMAT, dev (NODE_ENV not production), stdout a terminal → the format
    ['auto', true, true, 'pretty'],
    ['auto', true, false, 'json'],
    ['auto', false, true, 'json'],
    ['json', true, true, 'json'],
    ['pretty', false, false, 'pretty'],
  ] as const)('LOG_FORMAT=%s, dev %s, terminal %s: %s lines', (logFormat, dev, tty, expected) => {
    expect(logFormatOf({ logFormat, dev }, tty)).toBe(expected);
  });

  it('gives the runtime node of npm start the same hosted-app domain and log format', () => {
    const c = loadConfig({ DATA_DIR: dataDir, HOSTED_APP_DOMAIN: 'apps.localhost', LOG_FORMAT: 'pretty' });
    expect(runtimeChildEnv(c)).toMatchObject({ RUNTIME_HOSTED_APP_DOMAIN: 'apps.localhost', LOG_FORMAT: 'pretty' });
    expect(runtimeChildEnv(loadConfig({ DATA_DIR: dataDir }))).not.toHaveProperty('RUNTIME_HOSTED_APP_DOMAIN');
  });

  it("names npm start's runtime node apart from its control plane in exported telemetry", () => {
    const saved = process.env.OTEL_SERVICE_NAME;
    try {
      process.env.OTEL_SERVICE_NAME = 'acme';
      expect(runtimeChildEnv(loadConfig({ DATA_DIR: dataDir })).OTEL_SERVICE_NAME).toBe('acme-runtime');
      delete process.env.OTEL_SERVICE_NAME;
      expect(runtimeChildEnv(loadConfig({ DATA_DIR: dataDir }))).not.toHaveProperty('OTEL_SERVICE_NAME');
    } finally {
      if (saved === undefined) delete process.env.OTEL_SERVICE_NAME; else process.env.OTEL_SERVICE_NAME = saved;
    }
  });

  it('documents every variable it reads, once', () => {
    const names = CONFIG_VARIABLES.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ['PORT', 'HOST', 'PUBLIC_URL', 'DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'MASTER_KEY', 'OPERATOR_TOKEN', 'LOG_LEVEL', 'RUNTIME_PORT', 'RUNTIME_URL', 'RUNTIME_SECRET', 'NODE_ENV']) {
      expect(names).toContain(name);
    }
    for (const v of CONFIG_VARIABLES) expect(v.description.length).toBeGreaterThan(10);
  });
});
