/**
 * Reading an app's answer to an interactive delivery (deliveries/interactive/answer.ts), one row per rule of the
 * spec: 200 with the type's result, 202 only for the deferrable types and with the right body,
 * anything else a failure with its reason.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@platform/sdk';
import { readAnswer } from '../../../control-plane/src/deliveries/interactive/answer.ts';
import { checkTree } from '../../../control-plane/src/deliveries/interactive/tree-check.ts';
import { checkState } from '../../../control-plane/src/blocks/definitions/state.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const json = (value: unknown) => bytes(JSON.stringify(value));
const tree = { type: 'uiBlock', attrs: { catalog: 1, summary: 'x' }, content: [{ type: 'uiActions', content: [] }] };

describe('readAnswer', () => {
  it.each([
    ['block.action', 200, json({ notice: { tone: 'info', text: 'ok' } }), 'result'],
    ['block.action', 200, json({}), 'result'],
    ['block.render', 200, json({ tree, actions: {} }), 'result'],
    ['block.insert', 200, json({ state: {}, tree, actions: {} }), 'result'],
    ['select.search', 200, json({ options: [{ value: 'a', label: 'A' }] }), 'result'],
    ['block.action', 202, bytes(''), 'deferred'],
    ['block.action', 202, bytes('  \n'), 'deferred'],
    ['block.action', 202, json({}), 'deferred'],
    ['command.run', 202, json({ visibility: 'public' }), 'deferred'],
    ['messageAction.run', 202, json({ visibility: 'private' }), 'deferred'],
  ] as const)('%s answering %i: %s', (type, status, body, kind) => {
    expect(readAnswer(type, status, body).kind).toBe(kind);
  });

  it.each([
    ['block.action', 200, bytes('{oops'), 'invalid-json'],
    ['block.action', 200, new Uint8Array([0xff, 0xfe]), 'invalid-json'],
    ['block.action', 200, json({ tree }), 'response-invalid'],
    ['block.action', 200, json({ openUrl: 'http://example.com' }), 'response-invalid'],
    ['block.action', 200, json({ notify: Array.from({ length: 21 }, () => ({ memberId: 'mem_1', text: 'x' })) }), 'response-invalid'],
    ['block.render', 200, json({ tree }), 'response-invalid'],
    ['select.search', 200, json({ options: Array.from({ length: 51 }, (_, i) => ({ value: `v${i}`, label: 'x' })) }), 'response-invalid'],
    ['block.action', 202, json({ visibility: 'public' }), 'deferral-invalid'],
    ['block.action', 202, bytes('later'), 'deferral-invalid'],
    ['command.run', 202, bytes(''), 'deferral-invalid'],
    ['block.render', 202, bytes(''), 'not-deferrable'],
    ['block.insert', 202, bytes(''), 'not-deferrable'],
    ['block.action', 204, bytes(''), 'http-status'],
    ['block.action', 301, bytes(''), 'http-status'],
    ['block.action', 500, json({}), 'http-status'],
  ] as const)('%s answering %i fails: %s', (type, status, body, reason) => {
    const answer = readAnswer(type, status, body);
    expect(answer).toMatchObject({ kind: 'failed', reason });
  });

  it('names where the answer left its schema', () => {
    const answer = readAnswer('block.action', 200, json({ notice: { tone: 'info', text: 'x'.repeat(141) } }));
    expect(answer.kind === 'failed' && answer.message).toMatch(/at notice\.text/);
  });

  describe('a block.action answer\'s table and state size, read once: by the checks that follow, not by the schema too', () => {
    const anyState = Object.assign(() => true, { errors: null }) as unknown as Parameters<typeof checkState>[0];

    it('a bad action table passes the read and fails the tree check, naming where', () => {
      const answer = readAnswer('block.action', 200, json({ tree, actions: { 'not a ref!': { name: 'inc' } } }));
      if (answer.kind !== 'result') throw new Error(JSON.stringify(answer));
      expect(checkTree(answer.result.tree, answer.result.actions)).toMatchObject({ ok: false, path: ['actions', 'not a ref!'] });
      const noName = readAnswer('block.action', 200, json({ tree, actions: { a0: { args: {} } } }));
      expect(noName.kind === 'result' && checkTree(noName.result.tree, noName.result.actions)).toMatchObject({ ok: false, path: ['actions', 'a0', 'name'] });
    });

    it('a state over 64 KB passes the read and fails the state check; a state that is not an object fails the read', () => {
      const big = readAnswer('block.action', 200, json({ state: { blob: 'x'.repeat(LIMITS.blockData.stateBytes) } }));
      if (big.kind !== 'result') throw new Error(JSON.stringify(big));
      expect(checkState(anyState, big.result.state)).toMatchObject({ ok: false, issues: [{ path: ['state'], code: 'too_large' }] });
      for (const state of [[1], 5, 'x', null]) expect(readAnswer('block.action', 200, json({ state }))).toMatchObject({ kind: 'failed', reason: 'response-invalid' });
    });

    it('tree and actions still come together', () => {
      expect(readAnswer('block.action', 200, json({ tree }))).toMatchObject({ kind: 'failed', reason: 'response-invalid' });
      expect(readAnswer('block.action', 200, json({ actions: {} }))).toMatchObject({ kind: 'failed', reason: 'response-invalid' });
    });
  });
});
