/**
 * @module authoring/initiative-pieces
 * How `defineApp` reads a schedule or a queue consumer without importing `schedule.ts` or
 * `queue.ts`: a defined piece carries its handler and the runner of its deliveries under these
 * symbols, so an app that defines neither bundles neither (the hello app's bundle budget, 100 KB).
 */
export const SCHEDULE = Symbol.for('platform.authoring.schedule');
export const SCHEDULE_HANDLER = Symbol.for('platform.authoring.scheduleHandler');
export const QUEUE = Symbol.for('platform.authoring.queue');
export const QUEUE_HANDLER = Symbol.for('platform.authoring.queueHandler');

/** A piece's handler and the runner that turns one of its deliveries into a call of it (`R`). */
export interface PieceRun<H, R> {
  readonly handler: H;
  readonly run: R;
}

/** What a defined piece carries under `key`, when `value` is one (`mark`), else `undefined`. */
export function pieceRun<P extends PieceRun<unknown, unknown>>(value: unknown, mark: symbol, key: symbol): P | undefined {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[mark] === true
    ? (value as Record<symbol, P>)[key] : undefined;
}
