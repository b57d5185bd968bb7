import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@platform/control-plane';

const base = { MASTER_KEY: Buffer.alloc(32, 1).toString('base64'), RUNTIME_SECRET: 'r'.repeat(20), DATA_DIR: '/tmp/platform-config-test' };

describe('lifecycle configuration', () => {
  it('has defaults for the outbox, retention and mail', () => {
    const config = loadConfig(base);
    expect(config.outbox).toEqual({ workers: 2, batchSize: 100, concurrency: 64, pollMs: 1_000, leaseMs: 60_000 });
    expect(config.deliveryRetentionMs).toBe(7 * 24 * 3_600_000);
    expect(config.settledDeliveryRetentionMs).toBe(30 * 24 * 3_600_000);
    expect(config.smtpUrl).toBeNull();
    expect(config.mailFrom).toBe('Platform <platform@localhost>');
  });

  it.each([
    ['a lease no longer than the acknowledgement time', { OUTBOX_LEASE_MS: '15000' }],
    ['an SMTP URL of another scheme', { SMTP_URL: 'https://mail.example.com' }],
    ['a negative number of loops', { OUTBOX_WORKERS: '-1' }],
  ])('refuses %s', (_, env) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
  });

  it('reads SMTP and the outbox settings', () => {
    const config = loadConfig({ ...base, SMTP_URL: 'smtps://user:pass@mail.example.com:465', OUTBOX_WORKERS: '0', OUTBOX_LEASE_MS: '90000' });
    expect(config.smtpUrl).toBe('smtps://user:pass@mail.example.com:465');
    expect(config.outbox).toMatchObject({ workers: 0, leaseMs: 90_000 });
  });
});
