export { createGuardedAgent, assertUrlAllowed, OutboundRefusedError, type GuardOptions, type ResolveAll } from './guarded-agent.ts';
export { postJson, type PostJsonInput, type PostOutcome } from './post-json.ts';
export { createImageFetch, type ImageFetch, type ImageFetchOutcome } from './fetch-image.ts';
