/**
 * @module delivery/constants
 * The closed lists of deliveries, as plain data (no zod), so code that only needs a list (the SDK
 * inside a hosted bundle) does not pull the schemas in. The schema modules re-export them.
 */
import { MESSAGE_ACTION_CONTEXTS } from '../manifest/model/constants.ts';

export { MESSAGE_ACTION_CONTEXTS };

export const INTERACTIVE_TYPES = [
  'block.render', 'block.action', 'block.insert', 'select.search',
  'reference.resolve', 'reference.search', 'command.run', 'messageAction.run',
] as const;
export type InteractiveType = (typeof INTERACTIVE_TYPES)[number];

/** Types that may answer `202` and finish later (rule 5); any other type answering `202` fails. */
export const DEFERRABLE_TYPES = ['block.action', 'command.run', 'messageAction.run'] as const satisfies readonly InteractiveType[];

export const INSTALL_KINDS = ['workspace', 'dev'] as const;

export const NOTICE_TONES = ['neutral', 'info', 'success', 'warning', 'danger'] as const;
export type NoticeTone = (typeof NOTICE_TONES)[number];

export const VISIBILITIES = ['public', 'private'] as const;

export const REFERENCE_ACCESS = ['granted', 'unauthorized', 'forbidden', 'notFound', 'unavailable'] as const;
