/**
 * @module names
 * The one rule for the characters of names (see names.ts).
 */
export { isCleanName, nameProblem } from './names.ts';
