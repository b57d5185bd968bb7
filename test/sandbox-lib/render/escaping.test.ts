/**
 * Hostile strings from apps never become markup: every string slot of every component (text
 * runs, labels, titles, URLs, field names, option values, table cells, series names) is filled
 * with a payload, and the output is tokenized: every tag and attribute is one the renderer writes,
 * no attribute is an event handler, and every href and src is https. fast-check then throws
 * arbitrary strings at the same slots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderBlock } from '../../../sandbox-lib/src/render/index.ts';

const PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  'javascript:alert(1)',
  '</textarea><svg onload=alert(1)>',
  '&lt;b&gt;&amp;',
  '<!-- --><style>*{}</style>',
];

/** A tree with `s` in every string slot (the tree is not validated: the playground draws such trees). */
function hostileTree(s: string): unknown {
  const t = (text: string) => [{ type: 'text', text, marks: [{ type: 'link', attrs: { href: s } }, { type: 'bold' }] }];
  const ref = { ref: s };
  return {
    type: 'uiBlock', attrs: { catalog: 1, summary: s },
    content: [
      { type: 'uiHeader', attrs: { href: s, trailing: s }, content: [{ type: 'uiHeaderTitle', content: t(s) }, { type: 'uiBadge', attrs: { label: s, tone: s, icon: s } }, { type: 'uiStatus', attrs: { label: s, tone: s } }, { type: 'uiIcon', attrs: { name: s, label: s, tone: s } }] },
      { type: 'uiItem', attrs: { href: s, description: s, trailing: s, avatarSrc: s, icon: s }, content: [{ type: 'uiItemTitle', content: t(s) }] },
      { type: 'uiText', attrs: { variant: s }, content: t(s) },
      { type: 'uiCallout', attrs: { tone: s, title: s, icon: s }, content: t(s) },
      { type: 'uiStep', attrs: { label: s, description: s, state: s } },
      { type: 'uiQuote', attrs: { attribution: s, href: s }, content: t(s) },
      { type: 'uiFile', attrs: { name: s, url: s, mimeType: s, size: 1 } },
      { type: 'uiImage', attrs: { src: s, alt: s, href: s } },
      { type: 'uiImage', attrs: { src: `https://x.example.com/${s}`, alt: s } },
      { type: 'uiProgress', attrs: { value: 1, max: 2, label: s, unit: s, tone: s } },
      { type: 'uiAvatarStack', attrs: { people: [{ name: s, avatarSrc: s }], label: s } },
      { type: 'uiSection', attrs: { title: s, handle: s, collapsed: true }, content: [{ type: 'uiStack', attrs: { direction: s, gap: s, audience: { members: [s] } }, content: [{ type: 'uiText', content: t(s) }] }] },
      { type: 'uiTabs', attrs: { title: s }, content: [{ type: 'uiTab', attrs: { label: s, icon: s }, content: [] }, { type: 'uiTab', attrs: { label: s }, content: [] }] },
      { type: 'uiColumns', content: [{ type: 'uiColumn', attrs: { width: s }, content: [{ type: 'uiFacts', content: [{ type: 'uiFact', attrs: { label: s, value: s } }] }] }] },
      { type: 'uiMetrics', content: [{ type: 'uiMetric', attrs: { label: s, value: 1, format: 'currency', currency: s, unit: s, href: s, delta: { value: 1, tone: s }, trend: [1, 2] } }] },
      { type: 'uiMetaList', content: [{ type: 'uiMetaItem', attrs: { text: s, icon: s, href: s } }] },
      { type: 'uiTable', attrs: { title: s, columns: [{ label: s }, { label: s, type: 'link' }, { label: s, type: 'status' }, { label: s, type: 'date' }, { label: s, type: 'person' }, { label: s, type: 'number', unit: s }],
        rows: [{ cells: [s, { label: s, href: s }, { label: s, tone: s }, s, { name: s, avatarSrc: s }, 3], menu: [{ label: s, action: ref, confirm: { title: s, body: s } }, { label: s, href: s }] }] } },
      { type: 'uiChart', attrs: { chartType: s, title: s, series: [{ name: s, points: [{ label: s, value: 1 }] }] } },
      { type: 'uiForm', content: [
        { type: 'uiTextInput', attrs: { name: s, label: s, placeholder: s, value: s, multiline: true } },
        { type: 'uiTextInput', attrs: { name: `${s}2`, label: s, placeholder: s, value: s } },
        { type: 'uiSelect', attrs: { name: s, label: s, placeholder: s, options: [{ value: s, label: s }], value: s } },
        { type: 'uiSelect', attrs: { name: s, label: s, search: ref, value: s, selectedLabel: s } },
        { type: 'uiChoiceGroup', attrs: { name: s, label: s, results: 'integration', choices: [{ value: s, label: s, description: s, count: 1 }] } },
        { type: 'uiToggle', attrs: { name: s, label: s, description: s } },
        { type: 'uiButton', attrs: { buttonType: 'submit', label: s, action: ref, confirm: { title: s, body: s } } },
      ] },
      { type: 'uiProse', content: [{ type: 'heading', attrs: { level: 1 }, content: t(s) }, { type: 'codeBlock', attrs: { language: s }, content: [{ type: 'text', text: s }] }, { type: 'orderedList', attrs: { start: s }, content: [] }] },
      { type: 'uiActions', content: [
        { type: 'uiButton', attrs: { buttonType: 'action', label: s, action: ref, intent: s, icon: s } },
        { type: 'uiButton', attrs: { buttonType: 'action', label: s, action: ref, confirm: { title: s, body: s } } },
        { type: 'uiButton', attrs: { buttonType: 'link', label: s, href: s } },
        { type: 'uiButton', attrs: { buttonType: 'copy', label: s, copyText: s } },
        { type: 'uiButton', attrs: { buttonType: 'toggle', label: s, target: s } },
        { type: 'uiMenu', attrs: { label: s, icon: s }, content: [{ type: 'uiMenuItem', attrs: { label: s, href: s } }] },
      ] },
      { type: 'uiFooter', content: t(s) },
      { type: s },
    ],
  };
}

const TAGS = new Set(['article', 'header', 'footer', 'section', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'span', 'p', 'a', 'strong', 'em', 's', 'code', 'pre',
  'button', 'dialog', 'details', 'summary', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'blockquote', 'img', 'progress', 'time',
  'table', 'caption', 'thead', 'tbody', 'tr', 'th', 'td', 'svg', 'rect', 'polyline', 'polygon', 'circle', 'form', 'label', 'input', 'textarea',
  'select', 'option', 'fieldset', 'legend']);

/** Every tag of the output, with its attributes; throws on anything that is not a well-formed tag. */
function tokenize(html: string): Array<{ tag: string; attrs: Array<[string, string]> }> {
  const tags: Array<{ tag: string; attrs: Array<[string, string]> }> = [];
  const tag = /<(\/?)([a-z0-9]+)((?:\s+[a-zA-Z-]+(?:="[^"<>]*")?)*)\s*\/?>/g;
  let last = 0;
  for (let m = tag.exec(html); m !== null; m = tag.exec(html)) {
    // Between tags: text only, with no angle bracket left unescaped.
    expect(html.slice(last, m.index)).not.toMatch(/[<>]/);
    last = tag.lastIndex;
    if (m[1] === '/') continue;
    const attrs = [...m[3]!.matchAll(/\s+([a-zA-Z-]+)(?:="([^"]*)")?/g)].map((a): [string, string] => [a[1]!, a[2] ?? '']);
    tags.push({ tag: m[2]!, attrs });
  }
  expect(html.slice(last)).not.toMatch(/[<>]/);
  return tags;
}

function expectInert(html: string): void {
  for (const { tag, attrs } of tokenize(html)) {
    expect(TAGS.has(tag), `tag <${tag}>`).toBe(true);
    for (const [name, value] of attrs) {
      expect(name.startsWith('on'), `attribute ${name}`).toBe(false);
      if (name === 'href' || name === 'src' || name === 'cite') expect(value, `${name} of <${tag}>`).toMatch(/^https:\/\//);
      if (name === 'style') expect(value).toMatch(/^width:\d+%$/);
    }
  }
}

describe('hostile strings from apps', () => {
  it.each(PAYLOADS)('%s stays text in every slot', (payload) => {
    const html = renderBlock(hostileTree(payload), { fieldErrors: { [payload]: payload }, notice: { tone: 'info', text: payload }, error: { message: payload }, final: null, openUrl: payload });
    expectInert(html);
    expect(html).not.toContain(payload.includes('<') ? payload : '\u0000');
  });

  it('arbitrary strings never break out of text or attributes', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
      expectInert(renderBlock(hostileTree(s), { error: { message: s }, notice: { tone: 'danger', text: s } }));
    }), { numRuns: 300 });
  });

  it.each(['__proto__', 'constructor', 'valueOf', 'hasOwnProperty'])('the property name %s as a type, name, tone, state or mark is just a string', (key) => {
    const html = renderBlock(hostileTree(key), { fieldErrors: {}, inputs: {} });
    expectInert(html);
    expect(html).toContain(`Unsupported component ${key}`);
  });

  it('a javascript: link is not a link at all', () => {
    const html = renderBlock(hostileTree('javascript:alert(1)'));
    expect(html).not.toMatch(/(href|src)="javascript:/);
  });
});
