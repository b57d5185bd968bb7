/**
 * @module testing/api-calls
 * The `/v0` calls a handler makes, recorded: a `fetch` that keeps every request to the service's
 * API origin (method, path, query, headers, JSON body) and answers it with the test's `api`
 * function, and passes any other request (the app's own egress) to the fetch it wraps. A call the
 * test gave no answer for gets `501` with a tagged error naming the call, so the handler sees a
 * failure rather than an invented success.
 */

export interface ApiCall {
  readonly method: string;
  /** The path under the API origin, with `/v0` (`/v0/messages`). */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body, parsed (the text when it is not JSON; undefined when there is none). */
  readonly body: unknown;
}

/** The answer to a call: a Response, or a value sent as `200` JSON; `undefined` for "no answer". */
export type ApiAnswer = (call: ApiCall) => Response | unknown | Promise<Response | unknown>;

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function noAnswer(call: ApiCall): Response {
  const message = `No answer for ${call.method} ${call.path} in this test: give createTestPlatform an \`api\` function that answers it`;
  return Response.json({ _tag: 'PlatformTestNoAnswer', message, path: [call.method, call.path] }, { status: 501 });
}

/**
 * @example
 * const calls: ApiCall[] = [];
 * const fetch = recordingFetch({ apiOrigin: 'https://platform.test', calls, answer: () => ({ id: 'msg_1' }), passThrough: globalThis.fetch });
 */
export function recordingFetch(options: { apiOrigin: string; calls: ApiCall[]; answer: ApiAnswer | undefined; passThrough: typeof fetch }): typeof fetch {
  const origin = new URL(options.apiOrigin).origin;
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== origin) return options.passThrough(input, init);
    const call: ApiCall = {
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(request.headers),
      body: parseBody(await request.text()),
    };
    options.calls.push(call);
    const answer = options.answer === undefined ? undefined : await options.answer(call);
    if (answer instanceof Response) return answer;
    return answer === undefined ? noAnswer(call) : Response.json(answer);
  };
}
