/**
 * @module messaging/memories/ids
 * Memory ids in the form of `core/ids/ids.ts` (kind prefix, 128 random bits in lowercase base32); `memo`,
 * since `mem` names members.
 */
import { randomBytes } from 'node:crypto';
import { base32 } from '../../core/ids/ids.ts';

export const newMemoryId = (): string => `memo_${base32(randomBytes(16))}`;
