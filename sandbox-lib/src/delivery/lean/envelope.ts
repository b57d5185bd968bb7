/**
 * @module delivery/lean/envelope
 * `EnvelopeSchema` (delivery/envelope.ts) as a lean check: every delivery body, read leniently.
 */
import { FORMATS } from '../../wire/predicates.ts';
import { INSTALL_KINDS } from '../constants.ts';
import { actor } from './common.ts';
import { closed, int, matches, object, optional, record, str, type Check } from './check.ts';
import { id, timestamp } from './primitives.ts';

/** The envelope's fields, `type` and `data` read by the given checks. */
export const envelopeShape = (type: Check, data: Check) => ({
  id: str(1),
  type,
  timestamp,
  app: object({ id, slug: matches(FORMATS.appSlug.pattern, FORMATS.appSlug.message), version: int(1) }),
  install: object({ id, workspaceId: id, kind: closed(INSTALL_KINDS, 'workspace'), config: optional(record()) }),
  installToken: optional(object({ token: str(1), expiresAt: timestamp })),
  actor: optional(actor),
  locale: str(1),
  timeZone: str(1),
  data,
});

/** Any envelope: `data` is an object whose shape depends on `type`. */
export const envelope = object(envelopeShape(str(1), record()));
