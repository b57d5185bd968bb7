/**
 * @module catalog/spec/content
 * Components that show things: Item (+ title), Text, Callout, Step, Quote, File, Image, Progress,
 * AvatarStack, and the small marks Badge, Status and Icon that sit after a header's or item's title.
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, OURS, SPEC } from '../kit/messages.ts';
import { imageCount } from '../rules/counts.ts';
import { icon } from '../rules/icons.ts';
import { progressNumbers } from '../rules/numbers.ts';
import { url } from '../rules/urls.ts';
import { identifier, isRecord, label, list, name, number, oneOf, optional, record, required, text } from '../kit/attr-types.ts';
import { hasVisibleText } from '../kit/measure.ts';
import { fail } from '../kit/state.ts';
import { TONES, ofType, slot } from './groups.ts';
import type { ComponentSpec, NodeRule } from '../kit/spec.ts';

const T = LIMITS.text;
const B = LIMITS.blockTree;
const ADORNMENTS = 3;
const RICH = ['bold', 'italic', 'strike', 'code', 'link'] as const;

/** Toned callouts and badges show their tone's glyph; only neutral ones take an icon. */
const neutralIcon: NodeRule = (node) => {
  const tone = node.attrs.tone;
  if (node.attrs.icon !== undefined && tone !== undefined && tone !== 'neutral') fail(SPEC.iconOnToned, [...node.path, 'attrs', 'icon']);
};

const calloutText: NodeRule = (node) => {
  const visible = node.content.some((c) => isRecord(c) && typeof c.text === 'string' && hasVisibleText(c.text));
  if (node.attrs.title === undefined && !visible) fail(OURS.calloutEmpty, node.path);
};

const tonedIconLabel: NodeRule = (node) => {
  const tone = node.attrs.tone;
  if (tone !== undefined && tone !== 'neutral' && node.attrs.label === undefined) fail(SPEC.tonedIconLabel, node.path);
};

export const contentSpecs: ComponentSpec[] = [
  {
    type: 'uiItem',
    attrs: {
      href: optional(url()),
      description: optional(text({ max: T.itemDescription })),
      trailing: optional(text({ max: T.itemTrailing })),
      avatarSrc: optional(url()),
      icon: optional(icon()),
    },
    content: {
      kind: 'slots',
      slots: [
        slot(ofType('uiItemTitle'), 1, 1, 'an <ItemTitle>'),
        slot(ofType('uiBadge', 'uiStatus', 'uiIcon'), 0, ADORNMENTS, 'badges', { count: COUNTS.itemAdornments }),
      ],
    },
  },
  {
    type: 'uiItemTitle',
    attrs: {},
    content: { kind: 'inline', marks: ['italic', 'strike', 'code', 'link'], empty: 'label' },
    textLimit: T.itemTitle,
  },
  {
    type: 'uiText',
    attrs: { variant: optional(oneOf(['body', 'muted', 'small'])) },
    content: { kind: 'inline', marks: RICH, empty: 'needs' },
    textLimit: B.textPerComponent,
  },
  {
    type: 'uiCallout',
    attrs: { tone: optional(oneOf(TONES)), title: optional(label(T.calloutTitle)), icon: optional(icon()) },
    content: { kind: 'inline', marks: RICH, empty: 'allow' },
    textLimit: B.textPerComponent,
    rules: [neutralIcon, calloutText],
  },
  {
    type: 'uiStep',
    attrs: {
      label: required(label(T.stepLabel)),
      description: optional(text({ max: T.stepDescription })),
      state: optional(oneOf(['upcoming', 'current', 'done', 'failed', 'skipped'])),
    },
  },
  {
    type: 'uiQuote',
    attrs: { attribution: optional(label(T.quoteAttribution)), href: optional(url()) },
    content: { kind: 'inline', marks: RICH, empty: 'needs' },
    textLimit: B.textPerComponent,
  },
  {
    type: 'uiFile',
    attrs: {
      name: required(name(T.fileName)),
      url: required(url()),
      size: optional(number({ integer: true, min: 0 })),
      mimeType: optional(identifier(/^[a-z]+\/[a-z0-9.+-]{1,100}$/i, 'a media type such as application/pdf')),
    },
  },
  {
    type: 'uiImage',
    attrs: {
      src: required(url()),
      alt: required(label(T.imageAlt)),
      width: optional(number({ integer: true, min: 1, max: LIMITS.blockData.imagePixelsPerSide })),
      height: optional(number({ integer: true, min: 1, max: LIMITS.blockData.imagePixelsPerSide })),
      href: optional(url()),
    },
    rules: [imageCount],
  },
  {
    type: 'uiProgress',
    attrs: {
      value: required(number({ min: 0 })),
      max: optional(number({ min: 0, above: true })),
      label: optional(label(T.progressLabel)),
      unit: optional(text({ max: T.unit })),
      tone: optional(oneOf(TONES)),
    },
    rules: [progressNumbers],
  },
  {
    type: 'uiAvatarStack',
    attrs: {
      people: required(list(record({ name: required(name(T.personName)), avatarSrc: optional(url()) }), {
        min: 1,
        max: B.avatarStackPeople,
        count: COUNTS.avatarStack,
        few: SPEC.needs('<AvatarStack>', 'at least one person'),
      })),
      label: optional(label(T.avatarStackLabel)),
    },
  },
  {
    type: 'uiBadge',
    attrs: { label: required(label(T.badgeLabel)), tone: optional(oneOf(TONES)), icon: optional(icon()) },
    rules: [neutralIcon],
  },
  {
    type: 'uiStatus',
    attrs: { label: required(label(T.statusLabel)), tone: optional(oneOf(TONES)) },
  },
  {
    type: 'uiIcon',
    attrs: { name: required(icon()), tone: optional(oneOf(TONES)), label: optional(label(T.iconLabel)) },
    rules: [tonedIconLabel],
  },
];
