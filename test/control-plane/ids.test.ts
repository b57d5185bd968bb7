// The control plane's one table of id prefixes (core/ids/ids.ts): every kind's prefix distinct, every
// id in the documented form, and no feature writing a prefix of its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASSET_ID_PATTERN } from '@platform/sdk';
import { ID_PREFIX, idMaker, newId, type IdKind } from '../../control-plane/src/core/ids/ids.ts';
import { assetIdOf } from '../../control-plane/src/apps/assets/service.ts';
import { pooledRandomBytes } from '../../control-plane/src/core/ids/random-pool.ts';

const SRC = join(import.meta.dirname, '../../control-plane/src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('ID_PREFIX', () => {
  it('gives every kind its own prefix', () => {
    const prefixes = Object.values(ID_PREFIX);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it.each(Object.keys(ID_PREFIX) as IdKind[])('%s ids are the prefix, then 128 random bits in base32', (kind) => {
    const id = newId(kind);
    expect(id).toMatch(new RegExp(`^${ID_PREFIX[kind]}_[a-z2-7]{26}$`));
    expect(idMaker(kind)()).not.toBe(id);
  });

  it('names asset ids in the form the SDK checks', () => {
    expect(assetIdOf(new Uint8Array([1, 2, 3]))).toMatch(ASSET_ID_PATTERN);
  });

  it('is the only place a prefix is joined to random bits', () => {
    const offenders = filesUnder(SRC)
      .filter((path) => !path.endsWith(join('core', 'ids', 'ids.ts')))
      .filter((path) => /`[a-z]{2,8}_\$\{base32\(/.test(readFileSync(path, 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('pooledRandomBytes', () => {
  it('hands out slices that never repeat and never change, across refills of the pool', () => {
    // 20,000 ids of 16 bytes cross the 4 KB pool's refill about 80 times.
    const views = Array.from({ length: 20_000 }, () => pooledRandomBytes(16));
    const seen = views.map((v) => v.toString('hex'));
    expect(new Set(seen).size).toBe(seen.length);
    expect(views.map((v) => v.toString('hex'))).toEqual(seen);
    expect(views.every((v) => v.length === 16)).toBe(true);
  });

  it('answers large requests from the CSPRNG directly, at their length', () => {
    expect(pooledRandomBytes(1000).length).toBe(1000);
    expect(pooledRandomBytes(0).length).toBe(0);
  });
});
