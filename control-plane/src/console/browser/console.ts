/**
 * @module console/browser/console
 * The console's one client script: event delegation on the document for app cards (cards.ts),
 * confirm dialogs (of cards and of the app settings pages), disclosures and toggle buttons, tabs
 * with arrow keys, copy buttons, the Logs
 * page following new lines (logs.ts), and the
 * one-time sign-in link (its key arrives in the URL fragment and is posted with the sign-in form,
 * then dropped from the address bar).
 */
import { change, click, pick, search, startPolling, submit } from './cards.ts';
import { followLogs } from './logs.ts';

function toggleSection(button: HTMLElement): void {
  const id = button.dataset.toggle ?? '';
  const body = document.getElementById(`${id}-body`);
  if (body === null) return;
  body.hidden = !body.hidden;
  for (const b of Array.from(document.querySelectorAll<HTMLElement>(`[data-toggle="${CSS.escape(id)}"]`))) b.setAttribute('aria-expanded', String(!body.hidden));
}

function selectTab(tab: HTMLElement, focus: boolean): void {
  const list = tab.closest('[role="tablist"]');
  if (list === null) return;
  for (const t of Array.from(list.querySelectorAll<HTMLElement>('[role="tab"]'))) {
    const selected = t === tab;
    t.setAttribute('aria-selected', String(selected));
    t.tabIndex = selected ? 0 : -1;
    const panel = document.getElementById(t.getAttribute('aria-controls') ?? '');
    if (panel !== null) panel.hidden = !selected;
  }
  if (focus) tab.focus();
}

/** Copies, and says so on the button for a moment (its accessible name tells a screen reader too). */
async function copy(button: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(button.dataset.copy ?? '');
  } catch {
    return; // no clipboard (an http origin other than localhost): the value is on the page to select
  }
  const first = button.firstChild;
  if (!(first instanceof Text) || button.dataset.copied !== undefined) return;
  button.dataset.copied = '';
  first.data = 'Copied';
  setTimeout(() => { first.data = 'Copy'; delete button.dataset.copied; }, 1500);
}

/** Outside app cards, the settings pages' confirm dialogs and copy buttons (their GET and link fallbacks are skipped). */
const PAGE_CONTROLS = '[data-toggle], [role="tab"], [data-confirm], [data-cancel], [data-copy]';

document.addEventListener('click', (event) => {
  const target = event.target as HTMLElement;
  const el = target.closest<HTMLElement>('[data-ref], [data-confirm], [data-cancel], [data-toggle], [role="tab"], [data-copy], [role="option"]');
  if (el === null || el.closest('[data-card]') === null && !el.matches(PAGE_CONTROLS)) return;
  if (el.matches('[data-confirm]')) {
    event.preventDefault();
    (document.getElementById(el.dataset.confirm ?? '') as HTMLDialogElement | null)?.showModal();
  } else if (el.matches('[data-cancel]')) {
    event.preventDefault();
    (el.closest('dialog') as HTMLDialogElement | null)?.close();
  } else if (el.matches('[data-ref]')) void click(el);
  else if (el.matches('[data-toggle]')) toggleSection(el);
  else if (el.matches('[role="tab"]')) selectTab(el, false);
  else if (el.matches('[data-copy]')) void copy(el);
  else if (el.matches('[role="option"]')) void pick(el);
});

document.addEventListener('submit', (event) => {
  const form = event.target as HTMLFormElement;
  if (!form.matches('form[data-form]')) return;
  event.preventDefault();
  void submit(form, (event as SubmitEvent).submitter as HTMLButtonElement | null);
});

document.addEventListener('change', (event) => {
  const target = event.target as HTMLElement;
  if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
  if (target.closest('form[data-form]') !== null || target.closest('[data-card]') === null) return;
  if (target.matches('[data-change]') || target.closest('fieldset[data-change]') !== null) void change(target);
});

let searchTimer: ReturnType<typeof setTimeout> | undefined;
document.addEventListener('input', (event) => {
  const input = event.target as HTMLElement;
  if (!(input instanceof HTMLInputElement) || input.getAttribute('role') !== 'combobox') return;
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => void search(input), 250);
});

document.addEventListener('keydown', (event) => {
  const el = event.target as HTMLElement;
  if (el.getAttribute('role') === 'tab' && (event.key === 'ArrowRight' || event.key === 'ArrowLeft' || event.key === 'Home' || event.key === 'End')) {
    const tabs = Array.from(el.closest('[role="tablist"]')?.querySelectorAll<HTMLElement>('[role="tab"]') ?? []);
    const i = tabs.indexOf(el);
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : (i + (event.key === 'ArrowRight' ? 1 : -1) + tabs.length) % tabs.length;
    selectTab(tabs[next]!, true);
    event.preventDefault();
  } else if (el.getAttribute('role') === 'combobox' && event.key === 'ArrowDown') {
    el.closest('[data-search]')?.querySelector<HTMLElement>('[role="option"]')?.focus();
    event.preventDefault();
  } else if (el.getAttribute('role') === 'option' && (event.key === 'Enter' || event.key === ' ')) {
    void pick(el);
    event.preventDefault();
  }
});

/** `#key=…&next=…` on the sign-in page: post it once, and take it out of the address bar and history. */
function signInFromFragment(): void {
  const form = document.getElementById('sign-in') as HTMLFormElement | null;
  if (form === null || location.hash.length < 2) return;
  const params = new URLSearchParams(location.hash.slice(1));
  history.replaceState(null, '', location.pathname + location.search);
  const key = params.get('key');
  if (key === null) return;
  (form.elements.namedItem('key') as HTMLInputElement).value = key;
  (form.elements.namedItem('once') as HTMLInputElement).value = '1';
  const next = params.get('next');
  if (next !== null) (form.elements.namedItem('next') as HTMLInputElement).value = next;
  form.submit();
}

/** A command answer still pending: the page reloads until the app answered. */
function reloadWhilePending(): void {
  if (document.querySelector('[data-poll-reload]') !== null) setTimeout(() => location.reload(), 2000);
}

signInFromFragment();
startPolling();
reloadWhilePending();
followLogs();
