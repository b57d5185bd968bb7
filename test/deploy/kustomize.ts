/**
 * Renders a kustomization the way `kubectl kustomize` does, for the part of kustomize our
 * manifests use: `resources` (files and folders with a kustomization of their own), `replicas`,
 * `images` and `patches` that are JSON 6902 operations on a target. Anything else in a
 * kustomization.yaml is refused, so the manifests cannot drift into features this renderer would
 * silently skip; where kubectl is installed, kubernetes.test.ts compares both renderings.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

interface Target { group?: string; version?: string; kind?: string; name?: string }
interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  replicas?: Array<{ name: string; count: number }>;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  patches?: Array<{ target?: Target; patch?: string; path?: string }>;
}
type Operation = { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown };

const KNOWN = new Set(['apiVersion', 'kind', 'resources', 'replicas', 'images', 'patches']);
const SCALABLE = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']);

const groupOf = (o: K8sObject) => (o.apiVersion.includes('/') ? o.apiVersion.split('/')[0]! : '');
const versionOf = (o: K8sObject) => o.apiVersion.split('/').at(-1)!;

function matches(o: K8sObject, t: Target): boolean {
  return (t.group === undefined || t.group === groupOf(o)) && (t.version === undefined || t.version === versionOf(o))
    && (t.kind === undefined || t.kind === o.kind) && (t.name === undefined || t.name === o.metadata.name);
}

/** RFC 6901 pointer segments. */
const segments = (pointer: string): string[] => pointer.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));

/** RFC 6902 add, replace and remove (what kustomize's patches run), failing where a path does not exist. */
export function applyJsonPatch(doc: unknown, ops: Operation[]): void {
  for (const op of ops) {
    const path = segments(op.path);
    const last = path.pop();
    if (last === undefined) throw new Error(`patch: cannot ${op.op} the whole document`);
    let parent = doc as Record<string, unknown> | unknown[];
    for (const s of path) {
      const next = (parent as Record<string, unknown>)[s];
      if (next === null || typeof next !== 'object') throw new Error(`patch: ${op.path} does not exist`);
      parent = next as Record<string, unknown>;
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length || (op.op !== 'add' && index === parent.length)) throw new Error(`patch: ${op.path} is out of range`);
      if (op.op === 'add') parent.splice(index, 0, structuredClone(op.value));
      else if (op.op === 'replace') parent[index] = structuredClone(op.value);
      else parent.splice(index, 1);
    } else {
      if (op.op !== 'add' && !(last in parent)) throw new Error(`patch: ${op.op} of ${op.path}, which does not exist`);
      if (op.op === 'remove') delete parent[last];
      else parent[last] = structuredClone(op.value);
    }
  }
}

function readResource(dir: string, entry: string): K8sObject[] {
  const path = join(dir, entry);
  if (statSync(path).isDirectory()) return renderKustomization(path);
  return parseAllDocuments(readFileSync(path, 'utf8')).map((d) => d.toJS() as K8sObject).filter((o) => o !== null);
}

function setImages(o: K8sObject, images: NonNullable<Kustomization['images']>): void {
  const spec = (o.spec as { template?: { spec?: { containers?: Array<{ image: string }>; initContainers?: Array<{ image: string }> } } } | undefined)?.template?.spec;
  for (const c of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) {
    const name = c.image.split('@')[0]!.replace(/:[^/:]+$/, '');
    const rule = images.find((i) => i.name === name);
    if (rule !== undefined) c.image = `${rule.newName ?? name}:${rule.newTag ?? (c.image.slice(name.length + 1) || 'latest')}`;
  }
}

/** The objects `kubectl kustomize dir` prints, in the order of the resources. */
export function renderKustomization(dir: string): K8sObject[] {
  const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
  const unknown = Object.keys(k).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) throw new Error(`${dir}/kustomization.yaml: ${unknown.join(', ')} not supported by this renderer`);
  if (k.kind !== 'Kustomization') throw new Error(`${dir}/kustomization.yaml: kind must be Kustomization`);
  const objects = (k.resources ?? []).flatMap((entry) => readResource(dir, entry));
  for (const { name, count } of k.replicas ?? []) {
    const targets = objects.filter((o) => SCALABLE.has(o.kind) && o.metadata.name === name);
    if (targets.length === 0) throw new Error(`${dir}: replicas for ${name}, which no resource is`);
    for (const o of targets) (o.spec as { replicas?: number }).replicas = count;
  }
  for (const patch of k.patches ?? []) {
    if (patch.path !== undefined || patch.patch === undefined || patch.target === undefined) throw new Error(`${dir}: only inline JSON 6902 patches with a target are supported`);
    const ops = parse(patch.patch) as Operation[];
    if (!Array.isArray(ops)) throw new Error(`${dir}: a patch must be a list of JSON 6902 operations`);
    const targets = objects.filter((o) => matches(o, patch.target!));
    if (targets.length === 0) throw new Error(`${dir}: a patch targets ${JSON.stringify(patch.target)}, which no resource is`);
    for (const o of targets) applyJsonPatch(o, ops);
  }
  if (k.images !== undefined) for (const o of objects) setImages(o, k.images);
  const seen = new Set<string>();
  for (const o of objects) {
    const id = `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    if (seen.has(id)) throw new Error(`${dir}: ${id} is defined twice`);
    seen.add(id);
  }
  return objects;
}
