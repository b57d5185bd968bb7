/**
 * @module console/pages/credentials
 * The Credentials page of an app (`/client/v1/apps/{appId}/credentials` and the two rotations, the
 * developer area's routes: the tooling API has none): the client id, a hint of the signing secret
 * and, after a rotation, until when deliveries are signed with the previous one too; rotating the
 * signing secret or the client secret, each behind a confirm.
 *
 * The API answers the whole signing secret, but the page shows only its last characters: a secret
 * on every page view is one in every screenshot and every shoulder. A new secret is shown once, on
 * the answer to the rotation's post (never a redirect target, so a reload or the history cannot
 * bring it back; pages are `no-store`).
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Assets } from '../kit/assets.ts';
import type { ConsoleEnv } from '../kit/env.ts';
import type { Markup } from '../kit/layout.ts';
import { appPage, appPath, appRefused, loadApp, statusOf, type AuthorApp, type C } from './app-frame.ts';
import { confirmAction, copyButton, problemOf, problemText, when, type Problem } from './author-forms.ts';

interface Credentials { clientId: string; signingSecret: string; previousSigningSecret: { secret: string; expiresAt: string } | null }

/** A new secret, shown once. */
type Revealed = { kind: 'signing'; secret: string; previousUntil: string | null } | { kind: 'client'; secret: string };

const enc = encodeURIComponent;
/** `whsec_…abcd`: enough to tell two secrets apart, too little to sign with. */
export const hint = (secret: string): string => `${/^[a-z]+_/.exec(secret)?.[0] ?? ''}…${secret.slice(-4)}`;

function revealed(r: Revealed): Markup {
  const what = r.kind === 'signing' ? 'signing secret' : 'client secret';
  return html`<section class="secret-once" aria-labelledby="secret-once-title"><h2 id="secret-once-title">Your new ${what}</h2>
    <p>Copy it now: this is the only time the console shows it.</p>
    <p><code id="new-secret" class="secret">${r.secret}</code> ${copyButton(r.secret, `the new ${what}`)}</p>
    ${r.kind === 'signing' ? html`<p>${r.previousUntil === null ? 'Deliveries are signed with the new secret only.'
      : html`Until <time datetime="${r.previousUntil}">${when(r.previousUntil)}</time>, deliveries carry a second signature made with the previous secret, so the app can switch over without missing one.`}</p>`
      : html`<p>The previous client secret stopped working: install tokens are minted with this one only.</p>`}</section>`;
}

function facts(app: AuthorApp, cred: Credentials): Markup {
  return html`<dl class="facts"><dt>Client id</dt><dd><code>${cred.clientId}</code> ${copyButton(cred.clientId, 'the client id')}</dd>
    <dt>Client secret</dt><dd><span class="muted">Shown once when made; the platform keeps only its hash.</span></dd>
    <dt>Signing secret</dt><dd><code id="signing-hint">${hint(cred.signingSecret)}</code> <span class="muted">(the last characters; the app verifies each delivery's <code>webhook-signature</code> with it)</span></dd>
    <dt>Previous signing secret</dt><dd>${cred.previousSigningSecret === null ? html`<span class="muted">none</span>`
      : html`<code>${hint(cred.previousSigningSecret.secret)}</code>, still signing until <time datetime="${cred.previousSigningSecret.expiresAt}">${when(cred.previousSigningSecret.expiresAt)}</time>`}</dd>
    <dt>Hosting</dt><dd>${app.hosting === 'platform' ? 'hosted (the runtime holds the secrets)' : 'self-hosted'}</dd></dl>`;
}

function rotations(app: AuthorApp, opened: string | undefined): Markup {
  const page = appPath(app.id, '/credentials');
  return html`<h2>Rotate</h2><p>
    ${confirmAction({
      id: 'rotate-signing', page, trigger: 'Rotate signing secret', title: 'Rotate the signing secret?',
      text: 'A new secret signs deliveries from now on. For 24 hours each delivery also carries a signature made with the current one, so the app keeps verifying while you update it.',
      action: appPath(app.id, '/credentials/rotate-signing'), confirm: 'Rotate', opened,
    })}
    ${confirmAction({
      id: 'rotate-client', page, trigger: 'Rotate client secret', title: 'Rotate the client secret?',
      text: 'The current client secret stops working at once: anything minting install tokens with it fails until it has the new one.',
      action: appPath(app.id, '/credentials/rotate-client'), confirm: 'Rotate', opened,
    })}</p>`;
}

async function show(c: C, assets: Assets, input: { revealed?: Revealed; problem?: Problem; status?: ContentfulStatusCode } = {}) {
  const got = await loadApp(c);
  if (got.status !== 200) return appRefused(c, assets, got, 'Credentials');
  const app = got.body.app;
  const cred = await c.get('api').get<Credentials>(`/apps/${enc(app.id)}/credentials`);
  const body = html`${input.revealed === undefined ? '' : revealed(input.revealed)}${problemText('credentials-error', input.problem ?? null)}
    ${cred.status === 200 ? facts(app, cred.body) : problemText('credentials-read-error', problemOf(cred))}${rotations(app, c.req.query('confirm'))}`;
  return appPage(c, assets, app, { title: `Credentials of ${app.name}`, current: 'credentials', body, status: input.status ?? (cred.status === 200 ? 200 : statusOf(cred)) });
}

export function registerCredentialsPage(router: Hono<ConsoleEnv>, assets: Assets): void {
  router.get('/apps/:appId/credentials', (c) => show(c, assets));
  router.post('/apps/:appId/credentials/rotate-signing', async (c) => {
    const done = await c.get('api').post<Credentials>(`/apps/${enc(c.req.param('appId'))}/signing-secret/rotate`);
    if (done.status !== 200) return show(c, assets, { problem: problemOf(done), status: statusOf(done) });
    return show(c, assets, { revealed: { kind: 'signing', secret: done.body.signingSecret, previousUntil: done.body.previousSigningSecret?.expiresAt ?? null } });
  });
  router.post('/apps/:appId/credentials/rotate-client', async (c) => {
    const done = await c.get('api').post<{ clientSecret: string }>(`/apps/${enc(c.req.param('appId'))}/client-secret/rotate`);
    if (done.status !== 200) return show(c, assets, { problem: problemOf(done), status: statusOf(done) });
    return show(c, assets, { revealed: { kind: 'client', secret: done.body.clientSecret } });
  });
}
