/**
 * @module guest/capabilities/registry
 * Every guest capability, installed in this order by the guest runtime's setup. Each has a host
 * half of the same name in runtime/src/capabilities/registry.ts (see CONTRIBUTING.md).
 */
import { consoleCapability } from './console.ts';
import { cryptoCapability } from './crypto.ts';
import { fetchCapability } from './fetch.ts';
import { timersCapability } from './timers.ts';
import type { GuestCapability } from './types.ts';
import { urlCapability } from './url.ts';

export const GUEST_CAPABILITIES: readonly GuestCapability[] = [consoleCapability, timersCapability, cryptoCapability, urlCapability, fetchCapability];
