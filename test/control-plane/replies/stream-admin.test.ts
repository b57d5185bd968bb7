/**
 * The member's side of app streams over real HTTP: `GET /client/v1/circles/{circleId}/streams`
 * lists a circle's streams for anyone who sees the circle; `POST /client/v1/streams/{streamId}/revoke`
 * (owners and admins) makes the app's later events answer 410 while what it posted stays; a second
 * revocation changes nothing; `POST /client/v1/streams/{streamId}/unrevoke` (owners and admins)
 * lifts it, so the app's events are accepted again; streams of circles the member cannot see, or
 * of another workspace, answer as absent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAppMessagesWorld, type AppMessagesWorld } from './setup.ts';

let w: AppMessagesWorld;
beforeAll(async () => { w = await startAppMessagesWorld(); });
afterAll(async () => { await w?.stop(); });
beforeEach(() => { w.stack.clock.advance(61_000); });

const post = async (circleId: string, markdown: string) => (await w.app()).post('/streams/events', { circleId, markdown });

async function circleWithStream(): Promise<{ circleId: string; streamId: string }> {
  const circle = await w.ws.client.post('/circles', { name: `Feed ${Math.random().toString(36).slice(2, 8)}`, visibility: 'public' });
  const circleId = circle.body.circle.id as string;
  expect((await post(circleId, 'first')).status).toBe(200);
  const listed = await w.ws.client.get(`/circles/${circleId}/streams`);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return { circleId, streamId: listed.body.streams[0].id };
}

describe('listing a circle\'s streams', () => {
  it('shows the stream the first event created, not revoked', async () => {
    const { circleId, streamId } = await circleWithStream();
    const listed = await w.ws.client.get(`/circles/${circleId}/streams`);
    expect(listed.body).toEqual({
      streams: [{ id: streamId, circleId, appId: w.poster.id, name: expect.any(String), icon: null, createdAt: expect.any(String), revoked: null }],
    });
  });

  it('answers 404 for a circle the member cannot see, or one that does not exist', async () => {
    const outsider = await w.stack.addMember(w.ws.apiKey, { role: 'member' });
    const secret = await w.ws.client.post('/circles', { name: 'Hidden', visibility: 'private' });
    const hidden = await outsider.client.get(`/circles/${secret.body.circle.id}/streams`);
    expect(hidden.status).toBe(404);
    expect(hidden.body._tag).toBe('PlatformApiNotFoundError');
    expect((await w.ws.client.get('/circles/cir_nope/streams')).status).toBe(404);
  });
});

describe('revoking a stream', () => {
  it('a plain member may not revoke (403) and nothing changes', async () => {
    const { circleId, streamId } = await circleWithStream();
    const member = await w.stack.addMember(w.ws.apiKey, { role: 'member' });
    const res = await member.client.post(`/streams/${streamId}/revoke`, {});
    expect(res.status).toBe(403);
    expect(res.body._tag).toBe('PlatformApiForbiddenError');
    expect((await post(circleId, 'still open')).status).toBe(200);
  });

  it('an admin revokes: later events answer 410, what was posted stays, a second revocation keeps the first', async () => {
    const { circleId, streamId } = await circleWithStream();
    const admin = await w.stack.addMember(w.ws.apiKey, { role: 'admin' });
    const messagesBefore = await w.count('messages');
    const revoked = await admin.client.post(`/streams/${streamId}/revoke`, {});
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.stream.revoked).toEqual({ at: new Date(w.stack.clock.now()).toISOString(), byMemberId: admin.member.id });

    const refused = await post(circleId, 'after revocation');
    expect(refused.status).toBe(410);
    expect(refused.body._tag).toBe('PlatformAppStreamRevokedError');
    expect(await w.count('messages')).toBe(messagesBefore);

    w.stack.clock.advance(5_000);
    const again = await w.ws.client.post(`/streams/${streamId}/revoke`, {});
    expect(again.status).toBe(200);
    expect(again.body.stream.revoked).toEqual(revoked.body.stream.revoked);
    expect((await w.ws.client.get(`/circles/${circleId}/streams`)).body.streams[0].revoked).toEqual(revoked.body.stream.revoked);
  });

  it('a stream the member cannot see, of another workspace, or that does not exist answers 404 before any role check', async () => {
    const { streamId } = await circleWithStream();
    const other = await w.stack.createWorkspace({ ownerName: 'Other Owner' });
    const foreign = await other.client.post(`/streams/${streamId}/revoke`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.body._tag).toBe('PlatformApiNotFoundError');
    expect((await w.ws.client.post('/streams/str_nope/revoke', {})).status).toBe(404);
    expect((await w.ws.client.get(`/circles/${w.chatCircle}/streams`)).status).toBe(200);
  });
});

describe('un-revoking a stream', () => {
  it('an admin un-revokes: the app\'s events are accepted again, and a later revocation is a new one', async () => {
    const { circleId, streamId } = await circleWithStream();
    const admin = await w.stack.addMember(w.ws.apiKey, { role: 'admin' });
    expect((await admin.client.post(`/streams/${streamId}/revoke`, {})).status).toBe(200);
    expect((await post(circleId, 'refused')).status).toBe(410);

    const lifted = await admin.client.post(`/streams/${streamId}/unrevoke`, {});
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(200);
    expect(lifted.body.stream).toMatchObject({ id: streamId, circleId, appId: w.poster.id, revoked: null });
    const accepted = await post(circleId, 'welcome back');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.created).toBe(true);
    expect((await w.ws.client.get(`/circles/${circleId}/streams`)).body.streams[0].revoked).toBeNull();

    w.stack.clock.advance(7_000);
    const again = await w.ws.client.post(`/streams/${streamId}/revoke`, {});
    expect(again.body.stream.revoked).toEqual({ at: new Date(w.stack.clock.now()).toISOString(), byMemberId: w.ws.owner.id });
    expect((await post(circleId, 'refused again')).status).toBe(410);
  });

  it('un-revoking a stream that is not revoked changes nothing (200)', async () => {
    const { circleId, streamId } = await circleWithStream();
    const res = await w.ws.client.post(`/streams/${streamId}/unrevoke`, {});
    expect(res.status).toBe(200);
    expect(res.body.stream.revoked).toBeNull();
    expect((await post(circleId, 'still open')).status).toBe(200);
  });

  it('a plain member may not un-revoke (403) and the stream stays revoked', async () => {
    const { circleId, streamId } = await circleWithStream();
    expect((await w.ws.client.post(`/streams/${streamId}/revoke`, {})).status).toBe(200);
    const member = await w.stack.addMember(w.ws.apiKey, { role: 'member' });
    const res = await member.client.post(`/streams/${streamId}/unrevoke`, {});
    expect(res.status).toBe(403);
    expect(res.body._tag).toBe('PlatformApiForbiddenError');
    expect((await post(circleId, 'still refused')).status).toBe(410);
  });

  it('a stream of another workspace, of a circle the admin cannot see, or that does not exist answers 404', async () => {
    const { streamId } = await circleWithStream();
    const other = await w.stack.createWorkspace({ ownerName: 'Other Owner' });
    const foreign = await other.client.post(`/streams/${streamId}/unrevoke`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.body._tag).toBe('PlatformApiNotFoundError');
    const missing = await w.ws.client.post('/streams/str_nope/unrevoke', {});
    expect(missing.status).toBe(404);
    expect(missing.body._tag).toBe('PlatformApiNotFoundError');

    const admin = await w.stack.addMember(w.ws.apiKey, { role: 'admin' });
    const secret = await w.ws.client.post('/circles', { name: `Secret feed ${Math.random().toString(36).slice(2, 8)}`, visibility: 'private' });
    const secretId = secret.body.circle.id as string;
    expect((await w.ws.client.put(`/circles/${secretId}/app-invitations/${w.poster.id}`)).status).toBeLessThan(300);
    expect((await post(secretId, 'private feed')).status).toBe(200);
    const hiddenStream = (await w.ws.client.get(`/circles/${secretId}/streams`)).body.streams[0].id as string;
    const hidden = await admin.client.post(`/streams/${hiddenStream}/unrevoke`, {});
    expect(hidden.status).toBe(404);
    expect(hidden.body._tag).toBe('PlatformApiNotFoundError');
  });
});
