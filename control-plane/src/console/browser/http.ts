/**
 * @module console/browser/http
 * JSON posts to the console's own card routes. Same origin, so the browser sends the session cookie
 * and its Origin header (what the console's CSRF check reads).
 */

export interface CardAnswer {
  outcome?: string;
  html?: string;
  pending?: boolean;
  openUrl?: string | null;
  error?: { message: string } | null;
  options?: Array<{ value: string; label: string; description?: string }>;
  message?: string;
}

export async function postJson(path: string, body: unknown): Promise<CardAnswer> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  return await res.json() as CardAnswer;
}

export async function getJson(path: string): Promise<CardAnswer> {
  const res = await fetch(path, { credentials: 'same-origin' });
  return await res.json() as CardAnswer;
}
