/**
 * A small server-sent events reader for tests: opens a stream with fetch and hands out its events
 * one at a time, in order (`next`), waiting for the next one when none is buffered.
 *
 *   const stream = await openSse(`${url}/v0/apps/${appId}/logs/stream`, { authorization: `Bearer ${key}` });
 *   await stream.next('ready');
 *   const line = await stream.next('line');
 *   await stream.close();
 */

export interface SseEvent {
  event: string;
  id: string | null;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The next event (of type `event`, skipping others, when given); rejects when the stream ends first. */
  next(event?: string): Promise<SseEvent>;
  close(): Promise<void>;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  let ended = false;
  const wake = () => { for (const w of waiters.splice(0)) w(); };

  const pump = async () => {
    if (res.body === null || !res.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: 'message', id: null, data: '' };
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') event.event = value;
            else if (field === 'id') event.id = value;
            else if (field === 'data') data.push(value);
          }
          if (data.length === 0 && event.id === null && event.event === 'message') continue;
          event.data = data.join('\n');
          events.push(event);
          wake();
        }
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true;
      wake();
    }
  };
  const pumping = pump();

  return {
    status: res.status,
    headers: res.headers,
    async next(type) {
      for (;;) {
        const i = events.findIndex((e) => type === undefined || e.event === type);
        if (i !== -1) return events.splice(0, i + 1).at(-1)!;
        if (ended) throw new Error(`the stream ended before a${type === undefined ? 'n' : ` ${type}`} event`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async close() {
      controller.abort();
      await pumping;
    },
  };
}
