// Delivery shapes: round trips of the envelope, data and result of the 8 interactive types, the
// lenient reading of answers (unknown fields ignored, unknown closed-list values read as neutral),
// and the bounds answers must keep.
import { describe, expect, it } from 'vitest';
import {
  ActionResultSchema, DEFERRABLE_TYPES, EVENT_TYPES, EnvelopeSchema, INTERACTIVE_TYPES, InteractiveEnvelopeSchema, InvocationAnswerSchema,
  InvocationDeferralSchema, LIMITS, LifecycleEnvelopeSchema, OptionValueSchema, ReferenceResolutionSchema, SurfaceSchema, eventDataSchemas,
  interactiveDataSchemas, interactiveDeferralSchemas, interactiveEnvelopeSchemas, interactiveResultSchemas, lifecycleEnvelopeSchemas,
} from '@platform/sdk';
import { SAMPLES, block, envelope } from './delivery-samples.ts';

const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('interactive types', () => {
  it('are the 8 of the spec, each with a sample', () => {
    expect([...INTERACTIVE_TYPES].sort()).toEqual(Object.keys(SAMPLES).sort());
    expect(INTERACTIVE_TYPES).toHaveLength(8);
  });

  it.each(INTERACTIVE_TYPES)('%s: envelope, data and result round-trip through JSON unchanged', (type) => {
    const { data, result } = SAMPLES[type];
    const sent = envelope(type, data);
    expect(interactiveEnvelopeSchemas[type].parse(viaJson(sent))).toEqual(sent);
    expect(InteractiveEnvelopeSchema.parse(viaJson(sent))).toEqual(sent);
    expect(EnvelopeSchema.parse(viaJson(sent))).toEqual(sent);
    expect(interactiveDataSchemas[type].parse(viaJson(data))).toEqual(data);
    expect(interactiveResultSchemas[type].parse(viaJson(result))).toEqual(result);
  });

  it.each(INTERACTIVE_TYPES)('%s: an envelope of another type is not taken for it', (type) => {
    const other = INTERACTIVE_TYPES.find((t) => t !== type)!;
    expect(interactiveEnvelopeSchemas[type].safeParse(envelope(other, SAMPLES[type].data)).success).toBe(false);
  });

  it.each(INTERACTIVE_TYPES)('%s: answers may carry fields the service does not know yet', (type) => {
    const result = { ...(SAMPLES[type].result as object), futureField: { x: 1 } };
    expect(interactiveResultSchemas[type].safeParse(result).success).toBe(true);
  });

  it('deliveries to hosted apps come without installToken; unknown install kinds read as workspace', () => {
    const { installToken: _token, ...sent } = envelope('block.render', SAMPLES['block.render'].data);
    const parsed = interactiveEnvelopeSchemas['block.render'].parse({ ...sent, install: { ...sent.install, kind: 'enterprise' }, extra: true });
    expect(parsed.install.kind).toBe('workspace');
    expect(parsed.installToken).toBeUndefined();
  });

  it('fills args of an action called without any', () => {
    const data = interactiveDataSchemas['block.action'].parse({ ...(SAMPLES['block.action'].data as object), action: { name: 'close' } });
    expect(data.action.args).toEqual({});
  });

  it('only block actions, commands and message actions may defer', () => {
    expect([...DEFERRABLE_TYPES].sort()).toEqual(Object.keys(interactiveDeferralSchemas).sort());
    expect(interactiveDeferralSchemas['block.action'].safeParse(undefined).success).toBe(true);
    expect(InvocationDeferralSchema.parse({ visibility: 'public' })).toEqual({ visibility: 'public' });
  });
});

describe('lenient reading of closed lists', () => {
  it.each([
    ['an unknown notice tone reads as neutral', () => ActionResultSchema.parse({ notice: { tone: 'sparkly', text: 'Hi' } }).notice?.tone, 'neutral'],
    ['an unknown answer visibility reads as private', () => InvocationAnswerSchema.parse({ visibility: 'everyone' }).visibility, 'private'],
    ['an unknown deferral visibility reads as private', () => InvocationDeferralSchema.parse({ visibility: 'loud' }).visibility, 'private'],
    ['an unknown access reads as unavailable', () => ReferenceResolutionSchema.parse({ url: 'https://example.com/x', access: 'paywalled' }).access, 'unavailable'],
    ['an unknown reference visibility reads as restricted', () => (ReferenceResolutionSchema.parse({ ...(SAMPLES['reference.resolve'].result as any).items[0], visibility: 'secret' }) as any).visibility, 'restricted'],
    ['an unknown context level reads as message', () => interactiveDataSchemas['messageAction.run'].parse({ ...(SAMPLES['messageAction.run'].data as any), context: { ...(SAMPLES['messageAction.run'].data as any).context, level: 'workspace' } }).context.level, 'message'],
    ['an unknown render mode reads as interactive', () => interactiveDataSchemas['block.render'].parse({ block, mode: 'print' }).mode, 'interactive'],
  ])('%s', (_name, read, expected) => {
    expect(read()).toBe(expected);
  });

  it('a non-string tone still fails', () => {
    expect(ActionResultSchema.safeParse({ notice: { tone: 3, text: 'Hi' } }).success).toBe(false);
  });
});

describe('answer bounds', () => {
  const A = LIMITS.actions;
  it.each([
    ['tree without actions', { tree: { type: 'uiBlock' } }, false],
    ['actions without tree', { actions: {} }, false],
    ['notice of 140 characters', { notice: { tone: 'info', text: 'x'.repeat(A.notice) } }, true],
    ['notice of 141 characters', { notice: { tone: 'info', text: 'x'.repeat(A.notice + 1) } }, false],
    ['field error of 200 characters', { fieldErrors: { f: 'x'.repeat(A.fieldError) } }, true],
    ['field error of 201 characters', { fieldErrors: { f: 'x'.repeat(A.fieldError + 1) } }, false],
    ['final summary of 280 characters', { final: { summary: 'x'.repeat(A.finalSummary) } }, true],
    ['final summary of 281 characters', { final: { summary: 'x'.repeat(A.finalSummary + 1) } }, false],
    ['20 notifications', { notify: Array.from({ length: A.notifyItems }, () => ({ memberId: 'm', text: 'x' })) }, true],
    ['21 notifications', { notify: Array.from({ length: A.notifyItems + 1 }, () => ({ memberId: 'm', text: 'x' })) }, false],
    ['notification text of 281 characters', { notify: [{ memberId: 'm', text: 'x'.repeat(A.notifyText + 1) }] }, false],
    ['an http openUrl', { openUrl: 'http://example.com' }, false],
    ['a javascript: openUrl', { openUrl: 'javascript:alert(1)' }, false],
    ['state of 64 KB', { state: { s: 'x'.repeat(LIMITS.blockData.stateBytes - 8) } }, true],
    ['state over 64 KB', { state: { s: 'x'.repeat(LIMITS.blockData.stateBytes - 7) } }, false],
    ['action args of 2 KB', { tree: { type: 'uiBlock' }, actions: { a0: { name: 'x', args: { s: 'x'.repeat(A.argsBytesPerButton - 8) } } } }, true],
    ['action args over 2 KB', { tree: { type: 'uiBlock' }, actions: { a0: { name: 'x', args: { s: 'x'.repeat(A.argsBytesPerButton - 7) } } } }, false],
    ['an invalid action name in the table', { tree: { type: 'uiBlock' }, actions: { a0: { name: 'Close!' } } }, false],
    ['an empty result', {}, true],
  ])('ActionResult with %s: valid %s', (_name, result, valid) => {
    expect(ActionResultSchema.safeParse(result).success).toBe(valid);
  });

  it('caps select results at 50 and resolutions at 20', () => {
    const options = (n: number) => ({ options: Array.from({ length: n }, (_, i) => ({ value: `v${i}`, label: `L${i}` })) });
    expect(interactiveResultSchemas['select.search'].safeParse(options(50)).success).toBe(true);
    expect(interactiveResultSchemas['select.search'].safeParse(options(51)).success).toBe(false);
    const items = (n: number) => ({ items: Array.from({ length: n }, () => ({ url: 'https://example.com/x', access: 'notFound' })) });
    expect(interactiveResultSchemas['reference.resolve'].safeParse(items(20)).success).toBe(true);
    expect(interactiveResultSchemas['reference.resolve'].safeParse(items(21)).success).toBe(false);
  });

  it('reads hostile nesting in state without overflowing the stack', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(ActionResultSchema.safeParse({ state: deep }).success).toBe(false);
  });
});

describe('invocation shapes', () => {
  it.each([
    ['a string', 'x', true], ['a number', 3.5, true], ['a boolean', false, true],
    ['a member', { kind: 'member', memberId: 'm', name: 'Ada' }, true],
    ['a circle', { kind: 'circle', circleId: 'c', name: 'Team' }, true],
    ['an app object', { kind: 'appObject', id: '42', title: 'Crash' }, true],
    ['null', null, false], ['an unknown kind', { kind: 'file', id: 'f' }, false],
  ])('OptionValue: %s valid %s', (_name, value, valid) => {
    expect(OptionValueSchema.safeParse(value).success).toBe(valid);
  });

  it.each([
    [{ kind: 'circle', circleId: 'c', conversationId: 'v' }, true],
    [{ kind: 'circle', circleId: 'c', conversationId: null }, true],
    [{ kind: 'circle', circleId: 'c' }, false],
    [{ kind: 'dm', partnerMemberId: 'm' }, true],
    [{ kind: 'dm' }, false],
  ])('Surface %j valid %s', (surface, valid) => {
    expect(SurfaceSchema.safeParse(surface).success).toBe(valid);
  });
});

describe('lifecycle deliveries', () => {
  it('have a payload schema for each of the events', () => {
    expect(Object.keys(eventDataSchemas).sort()).toEqual([...EVENT_TYPES].sort());
    expect(Object.keys(lifecycleEnvelopeSchemas).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('round-trip a block.created delivery and still read an event type they do not know', () => {
    const data = { block: { ...block, circleId: 'cir_1', conversationId: null } };
    const sent = envelope('block.created', data);
    expect(lifecycleEnvelopeSchemas['block.created'].parse(viaJson(sent))).toEqual(sent);
    expect(LifecycleEnvelopeSchema.parse(envelope('calendar.updated', { anything: 1 })).type).toBe('calendar.updated');
  });

  it('require the version of the subject', () => {
    const { version: _v, ...unversioned } = block;
    expect(eventDataSchemas['block.removed'].safeParse({ block: { ...unversioned, circleId: null, conversationId: null } }).success).toBe(false);
  });
});
