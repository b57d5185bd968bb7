/**
 * Secrets at rest: AES-256-GCM round trip, tamper detection, wrong key, wrong context, rotation.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecrets } from '@platform/control-plane';

const key = randomBytes(32);
const secrets = createSecrets({ masterKey: key });

/** Flips one bit of part `index` (0-based, of the 5 dot-separated parts). */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[0] = bytes[0]! ^ 1;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('secrets at rest', () => {
  it('round-trips text, including empty and unicode, in the versioned format', () => {
    for (const plain of ['whsec_abc', '', 'ключ 🔑 with spaces', 'x'.repeat(10_000)]) {
      const sealed = secrets.seal(plain, 'env:app_1:KEY');
      expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/);
      expect(sealed).not.toContain(plain || '\u0000');
      expect(secrets.open(sealed, 'env:app_1:KEY')).toBe(plain);
    }
  });

  it('uses a fresh IV each time (same plaintext, different ciphertext)', () => {
    expect(secrets.seal('same')).not.toBe(secrets.seal('same'));
  });

  it('detects tampering with the IV, the ciphertext or the tag', () => {
    const sealed = secrets.seal('do not touch', 'ctx');
    for (const part of [2, 3, 4]) expect(() => secrets.open(tamper(sealed, part), 'ctx')).toThrow(/failed authentication|malformed/);
  });

  it('refuses a value sealed under another master key', () => {
    const other = createSecrets({ masterKey: randomBytes(32) });
    expect(() => other.open(secrets.seal('x'))).toThrow(/another master key|does not have/);
  });

  it('refuses a value opened in another context (a ciphertext moved to another row)', () => {
    const sealed = secrets.seal('value', 'env:app_1:A');
    expect(() => secrets.open(sealed, 'env:app_1:B')).toThrow(/failed authentication/);
    expect(() => secrets.open(sealed)).toThrow(/failed authentication/);
  });

  it('refuses unknown formats and versions', () => {
    const sealed = secrets.seal('x');
    expect(() => secrets.open('not sealed')).toThrow(/known format/);
    expect(() => secrets.open(sealed.replace(/^v1\./, 'v2.'))).toThrow(/known format/);
  });

  it('opens values sealed under a previous key after rotation, and says they need re-sealing', () => {
    const next = createSecrets({ masterKey: randomBytes(32), previous: [key] });
    const old = secrets.seal('rotate me', 'c');
    expect(next.open(old, 'c')).toBe('rotate me');
    expect(next.needsReseal(old)).toBe(true);
    expect(next.needsReseal(next.seal('fresh'))).toBe(false);
  });

  it('refuses master keys that are not 32 bytes', () => {
    expect(() => createSecrets({ masterKey: randomBytes(16) })).toThrow(/32 bytes/);
  });
});
