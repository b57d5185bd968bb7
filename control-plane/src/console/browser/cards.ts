/**
 * @module console/browser/cards
 * App cards in place: a click, form submission, field change or search select query goes to the
 * console's card routes (which call the client API), and the card answered replaces the old one.
 * Focus returns to the control with the same reference or name, so keyboard users keep their
 * place. A pending card is polled until the app finishes.
 */
import { getJson, postJson, type CardAnswer } from './http.ts';

const POLL_MS = 1500;
const polling = new Set<string>();

function cardOf(el: Element): { card: HTMLElement; blockId: string; revision: number } | null {
  const card = el.closest<HTMLElement>('[data-card]');
  const article = card?.querySelector<HTMLElement>('article[data-block-id]');
  if (card == null || article == null) return null;
  return { card, blockId: article.dataset.blockId ?? '', revision: Number(article.dataset.revision) };
}

/** Swaps the card, then puts focus back on the equivalent control. */
function replace(card: HTMLElement, html: string, focusSelector: string | null): HTMLElement | null {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  const fresh = holder.firstElementChild as HTMLElement | null;
  if (fresh === null) return null;
  card.replaceWith(fresh);
  if (focusSelector !== null) fresh.querySelector<HTMLElement>(focusSelector)?.focus();
  if (fresh.dataset.pending === 'true') poll(fresh.dataset.card ?? '');
  return fresh;
}

function applied(card: HTMLElement, answer: CardAnswer, focusSelector: string | null): void {
  if (typeof answer.html === 'string') replace(card, answer.html, focusSelector);
  if (typeof answer.openUrl === 'string' && answer.openUrl.startsWith('https://')) window.open(answer.openUrl, '_blank', 'noopener');
}

function poll(blockId: string): void {
  if (blockId === '' || polling.has(blockId)) return;
  polling.add(blockId);
  const tick = async () => {
    const card = document.querySelector<HTMLElement>(`[data-card="${CSS.escape(blockId)}"]`);
    if (card === null) return void polling.delete(blockId);
    const answer = await getJson(`/console/blocks/${encodeURIComponent(blockId)}`);
    if (answer.pending === true) return void setTimeout(tick, POLL_MS);
    polling.delete(blockId);
    if (typeof answer.html === 'string') replace(card, answer.html, null);
  };
  setTimeout(tick, POLL_MS);
}

export async function click(button: HTMLElement): Promise<void> {
  const at = cardOf(button);
  if (at === null) return;
  const ref = button.dataset.ref ?? '';
  (button.closest('dialog') as HTMLDialogElement | null)?.close();
  button.setAttribute('aria-busy', 'true');
  // A link card's block clicks through its message's card route; an app card through its block's.
  const path = at.card.dataset.referenceClick ?? `/console/blocks/${encodeURIComponent(at.blockId)}/click`;
  const answer = await postJson(path, { revision: at.revision, ref, ...(button.dataset.confirmed === 'true' ? { confirmed: true } : {}) });
  applied(at.card, answer, `[data-ref="${CSS.escape(ref)}"]:not([data-confirmed]), [data-confirm]`);
}

/** A form's values by field name: text as strings, a checkbox group as a list, a switch as true/false, a radio group as its value or null. */
function formValues(form: HTMLFormElement): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const el of Array.from(form.elements)) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) || el.name === '') continue;
    if (el instanceof HTMLInputElement && el.type === 'checkbox' && el.getAttribute('role') === 'switch') values[el.name] = el.checked;
    else if (el instanceof HTMLInputElement && el.type === 'checkbox') {
      const list = (values[el.name] as string[] | undefined) ?? [];
      if (el.checked) list.push(el.value);
      values[el.name] = list;
    } else if (el instanceof HTMLInputElement && el.type === 'radio') {
      if (!(el.name in values)) values[el.name] = null;
      if (el.checked) values[el.name] = el.value;
    } else values[el.name] = el.value;
  }
  return values;
}

export async function submit(form: HTMLFormElement, button: HTMLButtonElement | null): Promise<void> {
  const at = cardOf(form);
  const submitter = button ?? form.querySelector<HTMLButtonElement>('[data-submit-ref]');
  if (at === null || submitter === null) return;
  const title = submitter.dataset.confirmTitle;
  if (title !== undefined && !window.confirm(`${title}${submitter.dataset.confirmBody === undefined ? '' : `\n\n${submitter.dataset.confirmBody}`}`)) return;
  const values = formValues(form);
  const answer = await postJson(`/console/blocks/${encodeURIComponent(at.blockId)}/submit`, {
    revision: at.revision, ref: submitter.dataset.submitRef ?? '', values, ...(title === undefined ? {} : { confirmed: true }),
  });
  if (typeof answer.html !== 'string') return;
  const fresh = replace(at.card, answer.html, null);
  // Refused with field errors: what the member typed stays, and focus goes to the first field at fault.
  const invalid = fresh?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (fresh == null || invalid == null) return;
  for (const field of Array.from(fresh.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('form[data-form] input[type="text"], form[data-form] textarea'))) {
    const typed = values[field.name];
    if (typeof typed === 'string') field.value = typed;
  }
  invalid.focus();
}

/** The new value of a field with a change handler. */
function changedValue(target: HTMLInputElement | HTMLSelectElement): { name: string; value: unknown } | null {
  if (target instanceof HTMLSelectElement) return { name: target.name, value: target.value === '' ? null : target.value };
  if (target.getAttribute('role') === 'switch') return { name: target.name, value: target.checked };
  const group = target.closest<HTMLElement>('fieldset[data-field]');
  if (group === null) return null;
  const name = group.dataset.field ?? '';
  const checked = Array.from(group.querySelectorAll<HTMLInputElement>('input:checked')).map((i) => i.value);
  return { name, value: group.dataset.multiple === 'true' ? checked : checked[0] ?? null };
}

export async function change(target: HTMLInputElement | HTMLSelectElement): Promise<void> {
  const at = cardOf(target);
  const changed = changedValue(target);
  if (at === null || changed === null) return;
  const answer = await postJson(`/console/blocks/${encodeURIComponent(at.blockId)}/change`, { revision: at.revision, ...changed });
  applied(at.card, answer, target.id === '' ? null : `#${CSS.escape(target.id)}`);
}

/** Options of a search select for what was typed, shown in its listbox. */
export async function search(input: HTMLInputElement): Promise<void> {
  const at = cardOf(input);
  const box = input.closest<HTMLElement>('[data-search]');
  const list = box?.querySelector<HTMLUListElement>('[role="listbox"]');
  if (at === null || box == null || list == null) return;
  const answer = await postJson(`/console/blocks/${encodeURIComponent(at.blockId)}/search`, { revision: at.revision, name: box.dataset.search ?? '', query: input.value });
  list.replaceChildren(...(answer.options ?? []).map((o, i) => {
    const li = document.createElement('li');
    li.setAttribute('role', 'option');
    li.id = `${list.id}-${i}`;
    li.dataset.value = o.value;
    li.tabIndex = -1;
    li.textContent = o.label;
    return li;
  }));
  list.hidden = list.children.length === 0;
  input.setAttribute('aria-expanded', String(!list.hidden));
}

export async function pick(option: HTMLElement): Promise<void> {
  const box = option.closest<HTMLElement>('[data-search]');
  const input = box?.querySelector<HTMLInputElement>('[role="combobox"]');
  const hidden = box?.querySelector<HTMLInputElement>('input[type="hidden"]');
  const list = option.closest<HTMLElement>('[role="listbox"]');
  if (box == null || input == null || hidden == null || list === null) return;
  input.value = option.textContent ?? '';
  hidden.value = option.dataset.value ?? '';
  list.hidden = true;
  input.setAttribute('aria-expanded', 'false');
  input.focus();
  if (box.dataset.change === 'true') {
    const at = cardOf(box);
    if (at === null) return;
    const answer = await postJson(`/console/blocks/${encodeURIComponent(at.blockId)}/change`, { revision: at.revision, name: box.dataset.search ?? '', value: hidden.value });
    applied(at.card, answer, `#${CSS.escape(input.id)}`);
  }
}

export function startPolling(): void {
  for (const card of Array.from(document.querySelectorAll<HTMLElement>('[data-card][data-pending="true"]'))) poll(card.dataset.card ?? '');
}
