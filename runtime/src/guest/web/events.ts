/**
 * @module guest/web/events
 * DOMException, Event, EventTarget, AbortController and AbortSignal: the subset of the DOM that
 * fetch and timers need.
 */

const CODES: Record<string, number> = { AbortError: 20, TimeoutError: 23, DataCloneError: 25, QuotaExceededError: 22, NotSupportedError: 9, InvalidAccessError: 15, SyntaxError: 12 };

// Assigned by static blocks below; declared first so the blocks do not hit the temporal dead zone.
let setEventTarget: (event: Event, target: EventTarget) => void = () => {};
let fireAbort: (signal: AbortSignal, reason?: unknown) => void = () => {};

export class DOMException extends Error {
  readonly #name: string;
  constructor(message = '', name = 'Error') {
    super(String(message));
    this.#name = String(name);
  }
  override get name(): string { return this.#name; }
  get code(): number { return CODES[this.#name] ?? 0; }
}

export class Event {
  readonly #type: string;
  #defaultPrevented = false;
  #target: EventTarget | null = null;
  readonly #cancelable: boolean;
  constructor(type: string, init: { cancelable?: boolean } = {}) {
    if (arguments.length === 0) throw new TypeError('Event: a type is required');
    this.#type = String(type);
    this.#cancelable = init.cancelable === true;
  }
  get type(): string { return this.#type; }
  get target(): EventTarget | null { return this.#target; }
  get currentTarget(): EventTarget | null { return this.#target; }
  get defaultPrevented(): boolean { return this.#defaultPrevented; }
  get cancelable(): boolean { return this.#cancelable; }
  preventDefault(): void { if (this.#cancelable) this.#defaultPrevented = true; }
  stopPropagation(): void {}
  stopImmediatePropagation(): void {}
  static {
    setEventTarget = (event, target) => { event.#target = target; };
  }
}


type Listener = ((event: Event) => unknown) | { handleEvent(event: Event): unknown };

export class EventTarget {
  readonly #listeners = new Map<string, Array<{ listener: Listener; once: boolean }>>();
  addEventListener(type: string, listener: Listener | null, options: boolean | { once?: boolean; signal?: AbortSignal } = {}): void {
    if (listener === null || listener === undefined) return;
    const list = this.#listeners.get(type) ?? [];
    if (list.some((l) => l.listener === listener)) return;
    const once = typeof options === 'object' && options.once === true;
    list.push({ listener, once });
    this.#listeners.set(type, list);
    if (typeof options === 'object' && options.signal !== undefined) {
      options.signal.addEventListener('abort', () => this.removeEventListener(type, listener), { once: true });
    }
  }
  removeEventListener(type: string, listener: Listener | null): void {
    const list = this.#listeners.get(type);
    if (list === undefined) return;
    const i = list.findIndex((l) => l.listener === listener);
    if (i >= 0) list.splice(i, 1);
  }
  dispatchEvent(event: Event): boolean {
    setEventTarget(event, this);
    const list = [...(this.#listeners.get(event.type) ?? [])];
    for (const entry of list) {
      if (entry.once) this.removeEventListener(event.type, entry.listener);
      try {
        if (typeof entry.listener === 'function') entry.listener.call(this, event);
        else entry.listener.handleEvent(event);
      } catch (err) {
        reportError(err);
      }
    }
    return !event.defaultPrevented;
  }
}

let reportErrorHook: (err: unknown) => void = () => {};
export function setReportError(hook: (err: unknown) => void): void { reportErrorHook = hook; }
export function reportError(err: unknown): void { reportErrorHook(err); }

/** Set by the timers module so that AbortSignal.timeout works without an import cycle. */
let timeoutHook: ((fn: () => void, ms: number) => void) | null = null;
export function setTimeoutHook(hook: (fn: () => void, ms: number) => void): void { timeoutHook = hook; }

export class AbortSignal extends EventTarget {
  #aborted = false;
  #reason: unknown = undefined;
  onabort: ((event: Event) => unknown) | null = null;
  get aborted(): boolean { return this.#aborted; }
  get reason(): unknown { return this.#reason; }
  throwIfAborted(): void { if (this.#aborted) throw this.#reason; }
  static abort(reason?: unknown): AbortSignal {
    const signal = new AbortSignal();
    fireAbort(signal, reason);
    return signal;
  }
  static timeout(ms: number): AbortSignal {
    const signal = new AbortSignal();
    if (timeoutHook === null) throw new TypeError('AbortSignal.timeout is not available');
    timeoutHook(() => fireAbort(signal, new DOMException('The operation timed out', 'TimeoutError')), ms);
    return signal;
  }
  static any(signals: Iterable<AbortSignal>): AbortSignal {
    const combined = new AbortSignal();
    for (const s of signals) {
      if (s.aborted) { fireAbort(combined, s.reason); break; }
      s.addEventListener('abort', () => fireAbort(combined, s.reason), { once: true });
    }
    return combined;
  }
  static {
    // Kept off the public surface: only AbortController and the runtime abort a signal.
    fireAbort = (signal, reason) => {
      if (signal.#aborted) return;
      signal.#aborted = true;
      signal.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
      const event = new Event('abort');
      if (typeof signal.onabort === 'function') {
        try { signal.onabort.call(signal, event); } catch (err) { reportError(err); }
      }
      signal.dispatchEvent(event);
    };
  }
}

export function abortSignal(signal: AbortSignal, reason?: unknown): void { fireAbort(signal, reason); }

export class AbortController {
  readonly #signal = new AbortSignal();
  get signal(): AbortSignal { return this.#signal; }
  abort(reason?: unknown): void { fireAbort(this.#signal, reason); }
}
