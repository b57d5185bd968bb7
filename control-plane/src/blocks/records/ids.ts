/**
 * @module blocks/records/ids
 * Identifiers of the blocks features, in the form of `core/ids/ids.ts` (kind prefix, 128 random bits in
 * lowercase base32): blocks, their messages, the invocations of their actions (one per click).
 */
import { idMaker as make } from '../../core/ids/ids.ts';

export const newBlockId = make('block');
export const newInvocationId = make('invocation');
export const newBlockMessageId = make('message');
