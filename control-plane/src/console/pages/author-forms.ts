/**
 * @module console/pages/author-forms
 * Pieces the app settings pages share: the API's refusal turned into a message tied to the field it
 * names (`aria-invalid`, `aria-describedby`) or to the form, confirm dialogs, copy buttons.
 *
 * A confirm is a GET form whose button asks for `?confirm={id}`: the client script opens the
 * `<dialog>` instead (modal, focus kept inside), and without the script the page comes back with
 * that dialog drawn open, so a destructive post never happens on one click either way.
 */
import { html, raw } from 'hono/html';
import type { Answer } from '../kit/api.ts';
import type { Markup } from '../kit/layout.ts';

/** An API refusal as a form shows it: the tagged error's message, and the field its path names. */
export interface Problem {
  tag: string;
  message: string;
  /** The first segment of the error's path (or its first issue's), when there is one. */
  field: string | null;
}

export function problemOf(a: Answer): Problem {
  const body = (typeof a.body === 'object' && a.body !== null ? a.body : {}) as { _tag?: unknown; message?: unknown; path?: unknown; issues?: unknown };
  const issue = Array.isArray(body.issues) ? body.issues[0] as { message?: unknown; path?: unknown } | undefined : undefined;
  const path = Array.isArray(issue?.path) ? issue.path : Array.isArray(body.path) ? body.path : [];
  // The issue says what is wrong with the field ("keys are a letter or _…"); the error's own message is the summary.
  const message = typeof issue?.message === 'string' ? issue.message : typeof body.message === 'string' ? body.message : `The request failed (${a.status})`;
  return { tag: typeof body._tag === 'string' ? body._tag : 'ConsoleUnexpectedAnswer', message, field: typeof path[0] === 'string' ? path[0] : null };
}

/** The problem of `field` (or of the form, for `field === null` or a field the form does not have). */
export const problemFor = (p: Problem | null, field: string | null, fields: readonly string[] = []): Problem | null =>
  p === null ? null : field === null ? (p.field !== null && fields.includes(p.field) ? null : p) : p.field === field ? p : null;

/** The message under a field or a form: a live alert naming the error's tag. */
export function problemText(id: string, p: Problem | null): Markup {
  return p === null ? html`` : html`<p id="${id}" class="field-error" role="alert">${p.message} <code class="tag">${p.tag}</code></p>`;
}

/** The attributes tying an input to its problem. */
export const invalidAttrs = (id: string, p: Problem | null) => raw(p === null ? '' : ` aria-invalid="true" aria-describedby="${id}"`);

/** A text field of a posted form ('' when missing or a file). */
export const textField = (fields: Record<string, unknown>, name: string): string => (typeof fields[name] === 'string' ? fields[name] as string : '');

export interface Confirm {
  /** Unique on the page; also the `?confirm=` value. */
  id: string;
  /** The page the GET form comes back to (without the script). */
  page: string;
  /** Query fields the page needs to come back the same (`target`, …). */
  keep?: Record<string, string>;
  /** The button that asks, and its accessible name's tail (which row it acts on). */
  trigger: string;
  triggerDetail?: string;
  title: string;
  text: Markup | string;
  action: string;
  fields?: Record<string, string>;
  confirm: string;
  destructive?: boolean;
  /** The `confirm` query of the request: the dialog with that id is drawn open. */
  opened?: string | undefined;
}

export function confirmAction(x: Confirm): Markup {
  const open = x.opened === x.id;
  const cancel = `${x.page}${x.keep === undefined || Object.keys(x.keep).length === 0 ? '' : `?${new URLSearchParams(x.keep)}`}`;
  return html`<form method="get" action="${x.page}" class="inline">${Object.entries(x.keep ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
    <button type="submit" name="confirm" value="${x.id}" data-confirm="${x.id}" aria-haspopup="dialog" class="${x.destructive === false ? '' : 'danger'}">${x.trigger}${x.triggerDetail === undefined ? '' : html`<span class="sr-only"> ${x.triggerDetail}</span>`}</button></form>
    <dialog id="${x.id}" class="pb-confirm" aria-labelledby="${x.id}-title"${raw(open ? ' open' : '')}>
      <h2 id="${x.id}-title" class="pb-confirm-title">${x.title}</h2><p>${x.text}</p>
      <form method="post" action="${x.action}" class="pb-confirm-buttons">${Object.entries(x.fields ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
        <a href="${cancel}" class="pb-button" data-cancel>Cancel</a>
        <button type="submit" class="${x.destructive === false ? 'primary' : 'danger'}">${x.confirm}</button></form></dialog>`;
}

/** A button that copies `value` (the script; without it the value is on the page to select). */
export const copyButton = (value: string, what: string): Markup =>
  html`<button type="button" class="copy" data-copy="${value}">Copy<span class="sr-only"> ${what}</span></button>`;

/** `2026-01-31 12:00:00` of an ISO time (UTC, as every page shows times). */
export const when = (t: string | null): string => (t === null ? '—' : `${t.slice(0, 19).replace('T', ' ')} UTC`);
