// Tokens are minted with node:crypto (apps/tokens/jws.ts) and verified with jose: every signature must
// be the raw r || s a JWS carries, whatever the lengths of r and s in the DER node:crypto answers.
import { createSecretKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { exportJWK, importJWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { derToRaw, encodedHeader, signEs256, signHs256Encoded } from '../../../control-plane/src/apps/tokens/jws.ts';

const der = (r: number[], s: number[]) => Uint8Array.from([0x30, 4 + r.length + s.length, 0x02, r.length, ...r, 0x02, s.length, ...s]);

describe('derToRaw', () => {
  it('pads short integers and drops the sign byte of long ones', () => {
    const big = [0x00, 0x80, ...Array.from({ length: 31 }, (_, i) => i + 1)];
    const raw = derToRaw(der([0x01, 0x02], big), 32);
    expect(raw.length).toBe(64);
    expect([...raw.subarray(0, 32)]).toEqual([...Array.from({ length: 30 }, () => 0), 0x01, 0x02]);
    expect([...raw.subarray(32)]).toEqual(big.slice(1));
  });

  it('refuses what is not a DER signature of that size', () => {
    expect(() => derToRaw(Uint8Array.from([0x31, 0x00]), 32)).toThrow();
    expect(() => derToRaw(der([1], [2]).subarray(0, 6), 32)).toThrow();
    expect(() => derToRaw(der(Array.from({ length: 33 }, () => 1), [2]), 32)).toThrow();
    expect(() => derToRaw(Uint8Array.from([...der([1], [2]), 0x00]), 32)).toThrow();
  });
});

describe('signEs256', () => {
  it('makes JWTs jose verifies, for many keys and signatures', async () => {
    for (let k = 0; k < 4; k++) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const verifyKey = await importJWK(await exportJWK(publicKey), 'ES256');
      for (let i = 0; i < 300; i++) {
        const jwt = signEs256({ alg: 'ES256', kid: 'k1', typ: 'JWT' }, { sub: `ins_${i}`, n: 'é' }, privateKey);
        const { payload, protectedHeader } = await jwtVerify(jwt, verifyKey, { algorithms: ['ES256'] });
        expect(payload).toEqual({ sub: `ins_${i}`, n: 'é' });
        expect(protectedHeader.kid).toBe('k1');
      }
    }
  });
});

describe('signHs256Encoded', () => {
  it('makes JWTs jose verifies with the same secret and refuses with another', async () => {
    const secret = randomBytes(32);
    const header = encodedHeader({ alg: 'HS256', kid: 'k1', typ: 'JWT' });
    for (let i = 0; i < 50; i++) {
      const jwt = signHs256Encoded(header, { sub: `ins_${i}`, n: 'é' }, createSecretKey(secret));
      const { payload, protectedHeader } = await jwtVerify(jwt, secret, { algorithms: ['HS256'] });
      expect(payload).toEqual({ sub: `ins_${i}`, n: 'é' });
      expect(protectedHeader).toEqual({ alg: 'HS256', kid: 'k1', typ: 'JWT' });
      await expect(jwtVerify(jwt, randomBytes(32), { algorithms: ['HS256'] })).rejects.toThrow();
    }
  });
});
