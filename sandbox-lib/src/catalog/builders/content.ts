/**
 * @module catalog/builders/content
 * Builders for components that show things.
 */
import { type Draft, type Inline, type WithAudience, audienceOf, inline, node } from './core.ts';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export interface ItemOptions extends WithAudience {
  title: Inline | readonly Inline[];
  href?: string;
  description?: string;
  trailing?: string;
  avatarSrc?: string;
  icon?: string;
}

/**
 * A list row: title, description, trailing text, and up to 3 badges, statuses or icons.
 * @example ui.item({ title: 'Fix login bug', description: 'Assigned to Ada', href: 'https://t.example.com/1' }, [ui.badge({ label: 'P1' })])
 */
export function item(options: ItemOptions, adornments: readonly Draft[] = []): Draft {
  const { title, audience: _, ...attrs } = options;
  return node('uiItem', { ...attrs, audience: audienceOf(options) }, [node('uiItemTitle', {}, inline(title)), ...adornments]);
}

export interface TextOptions extends WithAudience {
  variant?: 'body' | 'muted' | 'small';
}

/**
 * A paragraph of text with simple formatting (2,000 characters).
 * @example ui.text(['Build ', ui.bold('passed'), ' in 3 minutes'], { variant: 'muted' })
 */
export function text(content: Inline | readonly Inline[], options?: TextOptions): Draft {
  return node('uiText', { variant: options?.variant, audience: audienceOf(options) }, inline(content));
}

export interface CalloutOptions extends WithAudience {
  tone?: Tone;
  title?: string;
  /** Only for neutral callouts; toned ones show their tone's glyph. */
  icon?: string;
}

/**
 * A highlighted note.
 * @example ui.callout({ tone: 'warning', title: 'Heads up' }, 'The deploy window closes at 17:00.')
 */
export function callout(options: CalloutOptions, content: Inline | readonly Inline[] = []): Draft {
  return node('uiCallout', { tone: options.tone, title: options.title, icon: options.icon, audience: audienceOf(options) }, inline(content));
}

export interface StepOptions extends WithAudience {
  label: string;
  description?: string;
  state?: 'upcoming' | 'current' | 'done' | 'failed' | 'skipped';
}

/**
 * One step of a process.
 * @example ui.step({ label: 'Build', state: 'done' })
 */
export function step(options: StepOptions): Draft {
  return node('uiStep', { label: options.label, description: options.description, state: options.state, audience: audienceOf(options) });
}

export interface QuoteOptions extends WithAudience {
  attribution?: string;
  href?: string;
}

/**
 * Quoted text with its source.
 * @example ui.quote('Ship it.', { attribution: 'Ada Lovelace' })
 */
export function quote(content: Inline | readonly Inline[], options?: QuoteOptions): Draft {
  return node('uiQuote', { attribution: options?.attribution, href: options?.href, audience: audienceOf(options) }, inline(content));
}

export interface FileOptions extends WithAudience {
  name: string;
  url: string;
  size?: number;
  mimeType?: string;
}

/**
 * A file to open or download.
 * @example ui.file({ name: 'report.pdf', url: 'https://files.example.com/r.pdf', size: 48213, mimeType: 'application/pdf' })
 */
export function file(options: FileOptions): Draft {
  const { audience: _, ...attrs } = options;
  return node('uiFile', { ...attrs, audience: audienceOf(options) });
}

export interface ImageOptions extends WithAudience {
  src: string;
  alt: string;
  width?: number;
  height?: number;
  href?: string;
}

/**
 * An image (at most 10 per block); the service copies `src` and stores an asset id.
 * @example ui.image({ src: 'https://cdn.example.com/chart.png', alt: 'Weekly signups' })
 */
export function image(options: ImageOptions): Draft {
  const { audience: _, ...attrs } = options;
  return node('uiImage', { ...attrs, audience: audienceOf(options) });
}

export interface ProgressOptions extends WithAudience {
  /** Without `max`, a fraction from 0 to 1. */
  value: number;
  max?: number;
  label?: string;
  /** What is counted (`tasks`); needs `max`. */
  unit?: string;
  tone?: Tone;
}

/**
 * A progress bar.
 * @example ui.progress({ value: 3, max: 5, unit: 'tasks', label: 'Checklist' })
 */
export function progress(options: ProgressOptions): Draft {
  const { audience: _, ...attrs } = options;
  return node('uiProgress', { ...attrs, audience: audienceOf(options) });
}

export interface Person {
  name: string;
  avatarSrc?: string;
}

export interface AvatarStackOptions extends WithAudience {
  people: readonly Person[];
  label?: string;
}

/**
 * Overlapping avatars of up to 50 people.
 * @example ui.avatarStack({ people: [{ name: 'Ada' }, { name: 'Grace' }], label: 'Reviewers' })
 */
export function avatarStack(options: AvatarStackOptions): Draft {
  const people = options.people.map((p) => (p.avatarSrc === undefined ? { name: p.name } : { name: p.name, avatarSrc: p.avatarSrc }));
  return node('uiAvatarStack', { people, label: options.label, audience: audienceOf(options) });
}

/**
 * A small label; an icon only when neutral.
 * @example ui.badge({ label: 'beta', tone: 'info' })
 */
export function badge(options: { label: string; tone?: Tone; icon?: string }): Draft {
  return node('uiBadge', { label: options.label, tone: options.tone, icon: options.icon });
}

/**
 * A state shown as a dot and a word.
 * @example ui.status({ label: 'Running', tone: 'info' })
 */
export function status(options: { label: string; tone?: Tone }): Draft {
  return node('uiStatus', { label: options.label, tone: options.tone });
}

/**
 * An icon from the catalog's set; toned icons need a label.
 * @example ui.icon({ name: 'warning', tone: 'warning', label: 'Flaky test' })
 */
export function icon(options: { name: string; tone?: Tone; label?: string }): Draft {
  return node('uiIcon', { name: options.name, tone: options.tone, label: options.label });
}
