export { LIMITS, type Limits } from './limits.ts';
