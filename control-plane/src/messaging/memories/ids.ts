/**
 * @module messaging/memories/ids
 * Memory ids in the form of `core/ids/ids.ts` (kind prefix, 128 random bits in lowercase base32); `memo`,
 * since `mem` names members.
 */
import { idMaker } from '../../core/ids/ids.ts';

export const newMemoryId = idMaker('memory');
