import { describe, expect, it } from 'vitest';
import { links, mentions, plainText, MAX_LINKS } from '../../../control-plane/src/workspace/events/content.ts';

const doc = (...content: unknown[]) => ({ type: 'doc', content });
const p = (...content: unknown[]) => ({ type: 'paragraph', content });
const t = (text: string, marks?: unknown[]) => ({ type: 'text', text, ...(marks ? { marks } : {}) });

describe('what a message says', () => {
  it('reads markdown as written and documents as text, one line per block', () => {
    expect(plainText({ markdown: '**Ship** it' })).toBe('**Ship** it');
    expect(plainText({ content: doc(p(t('Hello '), t('world')), p(t('Second'))) })).toBe('Hello world\nSecond');
  });

  it.each([
    ['a bare URL, trailing punctuation dropped', 'See https://tracker.example.com/acme/issues/42.', ['https://tracker.example.com/acme/issues/42']],
    ['a markdown link target', '[issue](https://tracker.example.com/acme/issues/7) done', ['https://tracker.example.com/acme/issues/7']],
    ['each URL once, in order', 'https://a.example.com/1 https://b.example.com/2 https://a.example.com/1', ['https://a.example.com/1', 'https://b.example.com/2']],
    ['not http:// links', 'http://tracker.example.com/acme/issues/1', []],
    ['a query kept', 'https://a.example.com/x?y=1!', ['https://a.example.com/x?y=1']],
  ])('finds links in markdown: %s', (_, markdown, expected) => {
    expect(links({ markdown })).toEqual(expected);
  });

  it('finds links in document text and in link marks', () => {
    const content = doc(p(t('see '), t('this', [{ type: 'link', attrs: { href: 'https://b.example.com/2' } }]), t(' and https://a.example.com/1')));
    expect(links({ content })).toEqual(['https://b.example.com/2', 'https://a.example.com/1']);
  });

  it('reads at most MAX_LINKS links', () => {
    const markdown = Array.from({ length: MAX_LINKS + 20 }, (_, i) => `https://x.example.com/${i}`).join(' ');
    expect(links({ markdown })).toHaveLength(MAX_LINKS);
  });

  it.each([
    ['@slug at the start', '@polls-k3x9 please', ['polls-k3x9']],
    ['@slug after punctuation', 'ask (@polls) now', ['polls']],
    ['not inside an e-mail address', 'mail me@polls.example.com', []],
    ['not inside a word', 'foo@polls', []],
    ['several', '@polls and @tracker', ['polls', 'tracker']],
  ])('finds app names in markdown: %s', (_, markdown, expected) => {
    expect([...mentions({ markdown })]).toEqual(expected);
  });

  it('finds app mention nodes by id or slug, and @slug in document text', () => {
    const content = doc(p(t('hey @tracker '), { type: 'mention', attrs: { kind: 'app', id: 'app_123' } }, { type: 'mention', attrs: { kind: 'member', id: 'mem_1' } }));
    expect([...mentions({ content })].sort()).toEqual(['app_123', 'tracker']);
  });
});
