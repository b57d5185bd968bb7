/**
 * @module console/browser/logs
 * The Logs page following new lines: an EventSource on the console's stream route (the session
 * cookie authenticates it; the key stays out of page script), each `line` event drawn on top of
 * the list with the markup the server writes (console/pages/logs.ts, `logLine`), built with DOM
 * calls and `textContent`, so nothing in a line is read as markup. EventSource reconnects by
 * itself with the last id it saw; a line already shown is not drawn twice.
 */
import { errorView, splitMessage, type LineError } from './log-lines.ts';

interface LogLine {
  id: string; at: string; version: number | null; kind: string;
  level: string; status: 'ok' | 'error'; message: string; profile: string | null;
  error?: LineError | null;
}

/** The line's error, as the server draws it (console/pages/logs.ts, `errorBlock`). */
function drawError(error: LineError, message: string): HTMLElement {
  const view = errorView(error, message);
  const details = el('details', 'log-error', null);
  const frames = el('ol', 'log-frames', null);
  for (const f of view.frames) {
    const item = el('li', null, null);
    item.append(el('code', null, f.text));
    if (f.bundle !== null) item.append(' ', el('span', 'muted', `bundle ${f.bundle}`));
    frames.append(item);
  }
  details.append(el('summary', null, view.summary), frames);
  if (view.unmapped) details.append(el('p', 'muted', 'Positions in the uploaded bundle: this version has no source map the runtime could use (platform deploy uploads it).'));
  return details;
}

function el(tag: string, className: string | null, text: string | null): HTMLElement {
  const node = document.createElement(tag);
  if (className !== null) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

function draw(appId: string, l: LogLine): HTMLElement {
  const { head, stack } = splitMessage(l.message);
  const li = el('li', `log-line log-${l.level} log-status-${l.status}`, null);
  li.dataset.lineId = l.id;
  const time = el('time', null, l.at.slice(0, 19).replace('T', ' '));
  time.setAttribute('datetime', l.at);
  li.append(time, ' ', el('span', 'badge', l.version === null ? 'dev' : `v${l.version}`), ' ', el('span', 'muted', l.kind), ' ',
    el('span', l.status === 'error' ? 'badge badge-danger' : 'badge', `${l.level} · ${l.status}`), ' ', el('span', 'log-message', head));
  if (stack !== null) {
    const details = el('details', null, null);
    details.append(el('summary', null, 'Stack'), el('pre', 'payload', stack));
    li.append(' ', details);
  }
  if (l.error != null) li.append(' ', drawError(l.error, l.message));
  if (l.profile !== null) {
    const a = el('a', null, 'CPU profile') as HTMLAnchorElement;
    a.href = `/console/apps/${encodeURIComponent(appId)}/logs/${encodeURIComponent(l.id)}/profile`;
    a.setAttribute('download', '');
    a.append(el('span', 'sr-only', ` of line ${l.id}`));
    li.append(' ', a);
  }
  return li;
}

/** Follows the list's stream when the page has one (only its newest page does). */
export function followLogs(): void {
  const list = document.getElementById('log-lines');
  const url = list?.dataset.logStream;
  if (list === null || url === undefined) return;
  const appId = list.dataset.appId ?? '';
  const status = document.getElementById('log-follow');
  const source = new EventSource(url);
  source.addEventListener('ready', () => { if (status !== null) status.textContent = 'Following: new lines appear at the top.'; });
  source.addEventListener('error', () => { if (status !== null) status.textContent = 'Reconnecting to the live lines…'; });
  source.addEventListener('line', (event) => {
    const line = JSON.parse((event as MessageEvent<string>).data) as LogLine;
    if (list.querySelector(`[data-line-id="${CSS.escape(line.id)}"]`) !== null) return;
    document.getElementById('log-empty')?.remove();
    list.prepend(draw(appId, line));
  });
}
