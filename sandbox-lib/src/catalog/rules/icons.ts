/**
 * @module catalog/rules/icons
 * The icon set of catalog v1. Icons are named, never URLs, so every client draws the same glyphs;
 * a few names are kept for the service's own controls so an app cannot dress up as them.
 */
import { OURS, SPEC } from '../kit/messages.ts';
import type { AttrCheck } from '../kit/spec.ts';
import { fail } from '../kit/state.ts';

export const ICONS = [
  'alert', 'archive', 'arrow-down', 'arrow-left', 'arrow-right', 'arrow-up', 'attachment', 'bell', 'bolt', 'book',
  'bookmark', 'bug', 'calendar', 'chart', 'chat', 'check', 'check-circle', 'clipboard', 'clock', 'cloud', 'code',
  'comment', 'copy', 'cpu', 'database', 'document', 'download', 'edit', 'eye', 'file', 'filter', 'flag', 'folder',
  'gift', 'git-branch', 'git-commit', 'git-merge', 'git-pull-request', 'globe', 'graph', 'hashtag', 'heart', 'help',
  'home', 'image', 'inbox', 'info', 'key', 'label', 'light-bulb', 'link', 'list', 'location', 'mail', 'megaphone',
  'minus', 'moon', 'music', 'package', 'pause', 'pencil', 'person', 'people', 'phone', 'pin', 'play', 'plus', 'question',
  'refresh', 'rocket', 'search', 'send', 'server', 'settings', 'share', 'shield', 'star', 'stop', 'sun', 'tag',
  'target', 'terminal', 'thumbs-down', 'thumbs-up', 'ticket', 'timer', 'tools', 'trash', 'trophy', 'upload', 'video',
  'wallet', 'warning', 'x-circle',
] as const;

/** Glyphs of the service's own controls (dismiss, overflow menu, pending, app and verified marks). */
export const RESERVED_ICONS = ['close', 'more', 'spinner', 'verified', 'app', 'drag-handle', 'lock'] as const;

const known = new Set<string>(ICONS);
const reserved = new Set<string>(RESERVED_ICONS);

/** An icon name from the catalog's set. */
export const icon = (): AttrCheck => (value, at) => {
  if (typeof value !== 'string') fail(OURS.attrType(at.component, at.name, 'an icon name'), at.path);
  if (reserved.has(value)) fail(SPEC.reservedIcon, at.path);
  if (!known.has(value)) fail(OURS.unknownIcon(value), at.path);
};
