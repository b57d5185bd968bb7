/**
 * @module messaging/notifications/ids
 * Inbox notification ids in the form of `core/ids/ids.ts`: `ntf_` + 128 random bits in base32.
 */
import { idMaker } from '../../core/ids/ids.ts';

export const newNotificationId = idMaker('notification');
