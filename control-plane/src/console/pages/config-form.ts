/**
 * @module console/pages/config-form
 * An install config form generated from the app's JSON Schema (`installConfig` of the consent
 * screen): strings, numbers, integers, booleans and enums, nested objects as fieldsets. Fields
 * with `writeOnly: true` are secrets: a password input, never prefilled; left empty when a value is
 * already set, they keep it (the API leaves out secret fields not sent).
 */
import { html } from 'hono/html';
import type { Markup } from '../kit/layout.ts';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; title?: string; description?: string; writeOnly?: boolean; default?: unknown };

const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

function field(path: string, name: string, s: Schema, required: boolean, value: unknown, secretsSet: readonly string[]): Markup {
  const id = `cfg-${path.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const label = html`<label for="${id}">${s.title ?? name}${required ? ' (required)' : ''}</label>`;
  const help = s.description === undefined ? '' : html`<span class="muted">${s.description}</span>`;
  const type = typeOf(s);
  if (type === 'object' && s.properties !== undefined) {
    return html`<fieldset class="stack"><legend>${s.title ?? name}</legend>${fields(path, s, (value ?? {}) as Record<string, unknown>, secretsSet)}</fieldset>`;
  }
  if (Array.isArray(s.enum)) {
    return html`<div class="field">${label}<select id="${id}" name="cfg.${path}">${required ? '' : html`<option value="">—</option>`}${s.enum.map((v) => html`<option value="${JSON.stringify(v)}"${v === value ? html` selected` : ''}>${String(v)}</option>`)}</select>${help}</div>`;
  }
  if (type === 'boolean') {
    return html`<div class="field"><span><input type="checkbox" id="${id}" name="cfg.${path}" value="true"${value === true ? html` checked` : ''}> ${label}</span><input type="hidden" name="cfg-bool.${path}" value="1">${help}</div>`;
  }
  if (s.writeOnly === true) {
    const set = secretsSet.includes(path);
    return html`<div class="field">${label}<input id="${id}" name="cfg.${path}" type="password" autocomplete="off" placeholder="${set ? 'Set: leave empty to keep it' : ''}">${help}</div>`;
  }
  const inputType = type === 'number' || type === 'integer' ? 'number' : 'text';
  return html`<div class="field">${label}<input id="${id}" name="cfg.${path}" type="${inputType}"${type === 'number' ? html` step="any"` : ''} value="${value === undefined || value === null ? '' : String(value)}">${help}</div>`;
}

function fields(prefix: string, s: Schema, values: Record<string, unknown>, secretsSet: readonly string[]): Markup[] {
  return Object.entries(s.properties ?? {}).map(([name, sub]) =>
    field(prefix === '' ? name : `${prefix}.${name}`, name, sub, (s.required ?? []).includes(name), values[name] ?? sub.default, secretsSet));
}

/** The form's fields, or nothing when the app has no config. */
export function configFields(schema: unknown, values: unknown, secretsSet: readonly string[] = []): Markup | '' {
  if (typeof schema !== 'object' || schema === null || (schema as Schema).properties === undefined) return '';
  return html`<fieldset class="stack"><legend>Configuration</legend>${fields('', schema as Schema, (values ?? {}) as Record<string, unknown>, secretsSet)}</fieldset>`;
}

/** The config a submitted form describes, typed by the schema; empty secrets are left out (kept). */
export function readConfig(schema: unknown, form: Record<string, unknown>): Record<string, unknown> | undefined {
  if (typeof schema !== 'object' || schema === null || (schema as Schema).properties === undefined) return undefined;
  const walk = (prefix: string, s: Schema): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(s.properties ?? {})) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      const raw = form[`cfg.${path}`];
      const type = typeOf(sub);
      if (type === 'object' && sub.properties !== undefined) out[name] = walk(path, sub);
      else if (type === 'boolean' && form[`cfg-bool.${path}`] !== undefined) out[name] = raw === 'true';
      else if (typeof raw !== 'string' || raw === '') continue;
      else if (Array.isArray(sub.enum)) out[name] = JSON.parse(raw) as unknown;
      else if (type === 'number' || type === 'integer') out[name] = Number(raw);
      else out[name] = raw;
    }
    return out;
  };
  return walk('', schema as Schema);
}
