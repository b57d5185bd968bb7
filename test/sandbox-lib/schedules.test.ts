// Schedules in the SDK: defineSchedule's manifest entry, the cron reading both sides share
// (due times, catch-up windows, daylight saving as recorded in docs/decisions/schedules.md), and
// a signed `schedule.fired` delivery running the handler through app.fetch.
import { describe, expect, it } from 'vitest';
import { AppDefinitionError, AppManifestInvalidError, defineApp, defineSchedule, dueWindow, nextDue, signDelivery, type ScheduleContext } from '@platform/sdk';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const utc = (iso: string) => new Date(iso);

describe('defineSchedule', () => {
  it('adds a schedules entry (time zone defaulting to UTC) and leaves it out when there are none', () => {
    const app = defineApp({
      name: 'Standup', slug: 'standup', hosting: 'platform',
      schedules: [
        defineSchedule({ name: 'standup', cron: '0 9 * * MON-FRI', timeZone: 'Europe/Berlin', handler: () => undefined }),
        defineSchedule({ name: 'cleanup', cron: '@hourly', handler: () => undefined }),
      ],
    });
    expect(app.manifest.schedules).toEqual([
      { name: 'standup', cron: '0 9 * * MON-FRI', timeZone: 'Europe/Berlin' },
      { name: 'cleanup', cron: '@hourly', timeZone: 'UTC' },
    ]);
    expect('schedules' in defineApp({ name: 'Plain', slug: 'plain', hosting: 'platform' }).manifest).toBe(false);
  });

  it('refuses a bad schedule at definition with the reason the service would answer', () => {
    const make = (cron: string, timeZone?: string) => () => defineApp({
      name: 'Bad', slug: 'bad-app', hosting: 'platform', schedules: [defineSchedule({ name: 'x', cron, ...(timeZone ? { timeZone } : {}), handler: () => undefined })],
    });
    expect(make('*/20 * * * * *')).toThrow(AppManifestInvalidError);
    try {
      make('0 9 * * *', 'Nowhere/Land')();
    } catch (error) {
      expect((error as AppManifestInvalidError).body).toMatchObject({ reason: 'schedule-time-zone-unknown', path: ['schedules', 0, 'timeZone'] });
    }
    expect(() => defineSchedule({ name: 'x', cron: '* * * * *' } as never)).toThrow(AppDefinitionError);
    expect(() => defineApp({ name: 'Bad', slug: 'bad-app', hosting: 'platform', schedules: [{ name: 'x', cron: '* * * * *' } as never] })).toThrow(AppDefinitionError);
  });
});

describe('due times', () => {
  const minutely = { cron: '* * * * *', timeZone: 'UTC' };
  it('the next due time is strictly after the given instant', () => {
    expect(nextDue(minutely, utc('2026-01-01T00:00:30Z'))).toEqual(utc('2026-01-01T00:01:00Z'));
    expect(nextDue(minutely, utc('2026-01-01T00:01:00Z'))).toEqual(utc('2026-01-01T00:02:00Z'));
  });
  it('a window owes one firing for its latest due time and counts the earlier ones as missed', () => {
    expect(dueWindow(minutely, utc('2026-01-01T00:01:00Z'), utc('2026-01-01T00:00:59Z'))).toBeNull();
    expect(dueWindow(minutely, utc('2026-01-01T00:01:00Z'), utc('2026-01-01T00:01:00Z'))).toEqual({ latest: utc('2026-01-01T00:01:00Z'), missed: 0 });
    expect(dueWindow(minutely, utc('2026-01-01T00:01:00Z'), utc('2026-01-01T00:04:30Z'))).toEqual({ latest: utc('2026-01-01T00:04:00Z'), missed: 3 });
  });
  it('stops counting at the cap but still fires for the latest due time', () => {
    const window = dueWindow(minutely, utc('2026-01-01T00:01:00Z'), utc('2026-01-20T00:00:00Z'));
    expect(window).toEqual({ latest: utc('2026-01-20T00:00:00Z'), missed: 1_000 });
  });
});

describe('daylight saving (America/New_York, 2026)', () => {
  it('a local time the clocks jump over is due when they jump', () => {
    // 2026-03-08 02:00 EST becomes 03:00 EDT: 02:30 does not exist that day.
    const daily = { cron: '30 2 * * *', timeZone: 'America/New_York' };
    expect(nextDue(daily, utc('2026-03-07T12:00:00Z'))).toEqual(utc('2026-03-08T07:00:00Z'));
    expect(nextDue(daily, utc('2026-03-08T07:00:00Z'))).toEqual(utc('2026-03-09T06:30:00Z'));
  });
  it('a fixed local time that happens twice is due once, at its first occurrence', () => {
    // 2026-11-01 02:00 EDT becomes 01:00 EST: 01:30 happens at 05:30Z and 06:30Z.
    const daily = { cron: '30 1 * * *', timeZone: 'America/New_York' };
    expect(nextDue(daily, utc('2026-10-31T12:00:00Z'))).toEqual(utc('2026-11-01T05:30:00Z'));
    expect(nextDue(daily, utc('2026-11-01T05:30:00Z'))).toEqual(utc('2026-11-02T06:30:00Z'));
  });
  it('a pattern matching every hour matches both repeated hours', () => {
    const halfHourly = { cron: '*/30 * * * *', timeZone: 'America/New_York' };
    expect(nextDue(halfHourly, utc('2026-11-01T05:30:00Z'))).toEqual(utc('2026-11-01T06:00:00Z'));
    expect(nextDue(halfHourly, utc('2026-11-01T06:00:00Z'))).toEqual(utc('2026-11-01T06:30:00Z'));
  });
});

describe('schedule.fired through app.fetch', () => {
  const fired: ScheduleContext['schedule'][] = [];
  const app = defineApp({
    name: 'Clock', slug: 'clock', hosting: 'self', endpoint: 'https://clock.example.com/platform',
    schedules: [defineSchedule({
      name: 'tick', cron: '* * * * *',
      handler: ({ schedule }) => {
        if (schedule.missed < 0) throw new Error('impossible');
        fired.push(schedule);
        if (schedule.dueAt.startsWith('2026-01-01T00:05')) throw new Error('fails this once');
      },
    })],
  }, { now: () => Date.UTC(2026, 0, 1) });

  async function deliver(id: string, schedule: Record<string, unknown>): Promise<number> {
    const body = JSON.stringify({
      id, type: 'schedule.fired', timestamp: '2026-01-01T00:00:00.000Z', app: { id: 'app_1', slug: 'clock', version: 1 },
      install: { id: 'ins_1', workspaceId: 'ws_1', kind: 'workspace' }, locale: 'en', timeZone: 'UTC', data: { schedule },
    });
    const timestamp = Math.floor(Date.UTC(2026, 0, 1) / 1000);
    const signature = await signDelivery({ id, timestamp, body, secret: SECRET });
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    const res = await app.fetch(new Request('https://clock.example.com/platform', {
      method: 'POST', body, headers: { ...headers, 'content-type': 'application/json', 'platform-delivery': 'lifecycle' },
    }), { PLATFORM_SIGNING_SECRET: SECRET });
    return res.status;
  }

  it('runs the named schedule, acknowledges unknown names, and answers 500 when the handler throws', async () => {
    const tick = { name: 'tick', cron: '* * * * *', timeZone: 'UTC', dueAt: '2026-01-01T00:01:00.000Z', missed: 2 };
    expect(await deliver('evt_1', tick)).toBe(204);
    expect(fired).toEqual([tick]);
    expect(await deliver('evt_1', tick)).toBe(204);
    expect(fired).toHaveLength(1);
    expect(await deliver('evt_2', { ...tick, name: 'gone' })).toBe(204);
    expect(fired).toHaveLength(1);
    expect(await deliver('evt_3', { ...tick, dueAt: '2026-01-01T00:05:00.000Z' })).toBe(500);
    expect(await deliver('evt_4', { ...tick, missed: -1 })).toBe(400);
  });
});
