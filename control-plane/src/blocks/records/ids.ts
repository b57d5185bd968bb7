/**
 * @module blocks/records/ids
 * Identifiers of the blocks features, in the form of `core/ids/ids.ts` (kind prefix, 128 random bits in
 * lowercase base32): blocks, the invocations of their actions (one per click), notifications.
 */
import { randomBytes } from 'node:crypto';
import { base32 } from '../../core/ids/ids.ts';

const make = (prefix: string) => (): string => `${prefix}_${base32(randomBytes(16))}`;

export const newBlockId = make('blk');
export const newInvocationId = make('inv');
export const newNotificationId = make('ntf');
export const newBlockMessageId = make('msg');
