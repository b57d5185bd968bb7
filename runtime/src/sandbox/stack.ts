/**
 * @module sandbox/stack
 * The guest's stack at the moment it is stopped. A runaway slice never returns, so its stack
 * cannot be read from inside. Instead an inspector session (isolates are created with
 * `inspector: true`; no session exists until needed) evaluates `throw 0` in the running isolate:
 * the inspector runs it as an interrupt on top of the guest's frames and reports the exception
 * with the stack it captured, which is the guest's stack at that instant. No guest code runs for
 * it (nothing is constructed, no `Error.prepareStackTrace` hook is consulted).
 *
 * isolated-vm 7's inspector sessions are fragile around disposal: disposing a session while its
 * isolate runs or after the isolate was disposed crashed or hung the process in our trials, while
 * leaving it to the garbage collector did not (hundreds of stops of loops and regular
 * expressions). So the session is never disposed here; it costs about 1.4 MB until the worker is
 * recycled, which is why stop.ts limits how often a stack is captured per app version.
 */
import type { Isolate } from './ivm.ts';

const MAX_FRAMES = 20;

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export function captureStack(isolate: Isolate, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    let settled = false;
    let nextId = 1;
    const finish = (stack: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(stack);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    try {
      const session = isolate.createInspectorSession();
      const send = (method: string, params?: object): void => session.dispatchProtocolMessage(JSON.stringify({ id: nextId++, method, params }));
      session.onNotification = (raw: string) => {
        if (settled) return;
        const msg = JSON.parse(raw) as { method?: string; params?: { context?: { id?: number } } };
        const contextId = msg.params?.context?.id;
        if (msg.method === 'Runtime.executionContextCreated' && typeof contextId === 'number') {
          send('Runtime.evaluate', { expression: 'throw 0', contextId, silent: true });
        }
      };
      session.onResponse = (_id: number, raw: string) => {
        if (settled) return;
        const msg = JSON.parse(raw) as { result?: { exceptionDetails?: { stackTrace?: { callFrames?: CallFrame[] } } } };
        const frames = msg.result?.exceptionDetails?.stackTrace?.callFrames;
        // The first frame is the evaluated `throw 0` itself.
        if (frames !== undefined && frames.length > 1) finish(render(frames.slice(1)));
      };
      send('Runtime.enable');
    } catch {
      finish(null);
    }
  });
}

function render(frames: CallFrame[]): string {
  return frames.slice(0, MAX_FRAMES).map((f) =>
    `    at ${f.functionName || '<anonymous>'} (${f.url || '<unknown>'}:${f.lineNumber + 1}:${f.columnNumber + 1})`).join('\n');
}
