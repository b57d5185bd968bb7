/**
 * @module core/http/client-limits
 * Bounds of the workspace client API. The spec does not show these records (circle, conversation,
 * member, reply), so the numbers are ours (docs/decisions/control-plane-foundation.md); where the
 * spec has a matching row (person names, markdown length) we take it from LIMITS.
 */
import { LIMITS } from '@platform/sdk';

const KB = 1024;

export const CLIENT_LIMITS = {
  workspaceName: 80,
  memberName: LIMITS.text.personName,
  apiKeyName: 80,
  circleName: 80,
  conversationTitle: LIMITS.endpoints.streamTitleMax,
  conversationStatus: 64,
  appId: 64,
  markdown: LIMITS.endpoints.streamMarkdownMax,
  /** Serialized editor document of one message. */
  contentBytes: 64 * KB,
  /** JSON nesting of an editor document (each node level adds two: the node and its content array). */
  contentDepth: 32,
  /** Request body caps: most requests, and the ones carrying a message. */
  bodyBytes: 16 * KB,
  messageBodyBytes: 256 * KB,
  pageDefault: 50,
  pageMax: 200,
  /** Byte cap applied to short texts on top of the grapheme count (per allowed grapheme). */
  bytesPerGrapheme: 16,
} as const;
