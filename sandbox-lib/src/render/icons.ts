/**
 * @module render/icons
 * Catalog icons as text glyphs: no icon font or image to load, and nothing a screen reader reads
 * (icons are decorative unless the tree gives them a label, which is then written as text).
 */
import { el } from './html.ts';

const GLYPHS: Readonly<Record<string, string>> = {
  alert: '!', 'arrow-down': '↓', 'arrow-left': '←', 'arrow-right': '→', 'arrow-up': '↑', bell: '🔔', bolt: '⚡', bug: '🐞',
  calendar: '📅', chart: '📊', check: '✓', 'check-circle': '✔', clock: '🕒', comment: '💬', chat: '💬', copy: '⧉', download: '⬇',
  edit: '✎', pencil: '✎', eye: '👁', file: '📄', document: '📄', flag: '⚑', globe: '🌐', heart: '♥', help: '?', question: '?',
  info: 'ℹ', key: '🔑', link: '🔗', lock: '🔒', mail: '✉', minus: '−', plus: '+', play: '▶', pause: '⏸', stop: '■', refresh: '↻',
  rocket: '🚀', search: '🔍', send: '➤', settings: '⚙', star: '★', 'thumbs-up': '👍', 'thumbs-down': '👎', trash: '🗑', upload: '⬆',
  warning: '⚠', 'x-circle': '✖', person: '👤', people: '👥', terminal: '⌨', tag: '🏷', timer: '⏱', trophy: '🏆', 'git-branch': '⑂',
};

/** A decorative glyph for an icon name (a dot for names without one). */
export function icon(name: unknown): string {
  if (typeof name !== 'string') return '';
  return el('span', { class: 'pb-icon', 'data-icon': name, 'aria-hidden': 'true' }, (Object.hasOwn(GLYPHS, name) ? GLYPHS[name] : undefined) ?? '•');
}
