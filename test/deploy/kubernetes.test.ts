/**
 * The Kubernetes manifests (deploy/kubernetes): both overlays render (the kustomize subset of
 * kustomize.ts, compared with `kubectl kustomize` where kubectl is installed), every object
 * validates against the Kubernetes API's OpenAPI schemas (kubernetes-models: ajv validators
 * generated from the API's own definitions) and has no field the API does not know (type-checked
 * against the same package's types). Then what the issue asks of them, checked on the
 * rendered objects: no volume claims, readiness on real readiness, the hosted-app domain from one
 * ConfigMap key for both processes, every referenced ConfigMap and Secret key documented, only
 * variables the processes read, disruption budgets that select pods, and the runtime pool's
 * seccomp profile and locked-down security context.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '@platform/control-plane';
import { CONFIG_TABLE } from '@platform/runtime';
import { renderKustomization, type K8sObject } from './kustomize.ts';

const ROOT = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));
const OVERLAYS = {
  'single-node': { controlPlanes: 1, runtimes: 1, extra: [] },
  fleet: { controlPlanes: 3, runtimes: 4, extra: ['NetworkPolicy/platform-runtime-redis'] },
} as const;

interface EnvVar {
  name: string; value?: string;
  valueFrom?: { configMapKeyRef?: { name: string; key: string }; secretKeyRef?: { name: string; key: string; optional?: boolean }; fieldRef?: { fieldPath: string } };
}
interface Container {
  name: string; image: string; env?: EnvVar[]; readinessProbe?: { httpGet?: { path: string } }; livenessProbe?: { httpGet?: { path: string } };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[]; add?: string[] } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
interface PodSpec {
  containers: Container[]; terminationGracePeriodSeconds?: number; volumes?: Array<Record<string, unknown>>; automountServiceAccountToken?: boolean;
  securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type: string; localhostProfile?: string } };
}
type Deployment = K8sObject & { spec: { replicas: number; template: { metadata: { labels: Record<string, string> }; spec: PodSpec } } };

/** The kubernetes-models class of an object's apiVersion and kind (its `validate()` runs the API schema). */
async function validate(o: K8sObject): Promise<void> {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : [null, o.apiVersion];
  const module = (await import(`kubernetes-models/${group === null ? '' : `${group}/`}${version}`)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = module[o.kind];
  if (Model === undefined) throw new Error(`no schema for ${o.apiVersion} ${o.kind}`);
  new Model(o).validate();
}

const MODELS = fileURLToPath(new URL('../../node_modules/', import.meta.url));

/**
 * Fields the API does not know, as kubeconform's -strict finds them: the OpenAPI schemas allow any
 * extra field, so each object is type-checked as an object literal against kubernetes-models' types
 * (generated from the same definitions), where an unknown property is an error. The problems, one a line.
 */
function unknownFields(objects: K8sObject[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'k8s-strict-'));
  try {
    const lines = objects.flatMap((o, i) => {
      const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : [null, o.apiVersion];
      return [`import type { I${o.kind} as T${i} } from 'kubernetes-models/${group === null ? '' : `${group}/`}${version}/${o.kind}';`,
        `export const o${i}: T${i} = ${JSON.stringify(o)};`];
    });
    const file = join(dir, 'objects.ts');
    writeFileSync(file, lines.join('\n'));
    const program = ts.createProgram([file], {
      strict: true, noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
      paths: { 'kubernetes-models/*': [`${MODELS}kubernetes-models/*`], '@kubernetes-models/*': [`${MODELS}@kubernetes-models/*`] },
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const deployment = (objects: K8sObject[], component: string) =>
  objects.find((o): o is Deployment => o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/component'] === component)!;
const containerOf = (d: Deployment) => d.spec.template.spec.containers[0]!;
const envOf = (d: Deployment) => new Map((containerOf(d).env ?? []).map((e) => [e.name, e]));
const secretKeys = new Set(Object.keys((parse(readFileSync(`${ROOT}secret.example.yaml`, 'utf8')) as { stringData: Record<string, string> }).stringData));

for (const [overlay, expected] of Object.entries(OVERLAYS)) {
  describe(`overlay ${overlay}`, () => {
    const objects = renderKustomization(`${ROOT}overlays/${overlay}`);
    const controlPlane = deployment(objects, 'control-plane');
    const runtime = deployment(objects, 'runtime');
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'platform') as K8sObject & { data: Record<string, string> };

    it('renders the fleet\'s objects, each valid against the Kubernetes API schema', async () => {
      expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
        'ConfigMap/platform', 'Deployment/platform-control-plane', 'Deployment/platform-runtime', 'NetworkPolicy/platform-runtime-egress',
        'PodDisruptionBudget/platform-control-plane', 'PodDisruptionBudget/platform-runtime', 'Service/platform-control-plane', 'Service/platform-runtime',
        ...expected.extra,
      ].sort());
      for (const o of objects) await expect(validate(o), `${o.kind}/${o.metadata.name}`).resolves.toBeUndefined();
      expect([controlPlane.spec.replicas, runtime.spec.replicas]).toEqual([expected.controlPlanes, expected.runtimes]);
    });

    it('has no field the Kubernetes API does not know', () => {
      expect(unknownFields(objects)).toEqual([]);
    }, 30_000);

    it('claims no volume: no PersistentVolumeClaim, no hostPath, only emptyDir', () => {
      expect(objects.filter((o) => o.kind === 'PersistentVolumeClaim')).toEqual([]);
      for (const d of [controlPlane, runtime]) {
        for (const v of d.spec.template.spec.volumes ?? []) expect(Object.keys(v).sort()).toEqual(['emptyDir', 'name']);
      }
    });

    it('is ready on real readiness: the database answers (control plane), sandbox workers are up (runtime)', () => {
      for (const d of [controlPlane, runtime]) {
        expect(containerOf(d).readinessProbe?.httpGet?.path).toBe('/readyz');
        expect(containerOf(d).livenessProbe?.httpGet?.path).toBe('/healthz');
      }
    });

    it('gives both processes the hosted-app domain from one ConfigMap key, and the runtime its public URL', () => {
      const cp = envOf(controlPlane).get('HOSTED_APP_DOMAIN')?.valueFrom?.configMapKeyRef;
      const rt = envOf(runtime).get('RUNTIME_HOSTED_APP_DOMAIN')?.valueFrom?.configMapKeyRef;
      expect(cp).toEqual({ name: 'platform', key: 'hosted-app-domain' });
      expect(rt).toEqual(cp);
      expect(envOf(runtime).get('RUNTIME_PUBLIC_URL')?.valueFrom?.configMapKeyRef).toEqual({ name: 'platform', key: 'runtime-public-url' });
      expect(config.data['hosted-app-domain']).toMatch(/^[a-z0-9.-]+$/);
    });

    it('sets only variables the processes read, from keys the ConfigMap and the example Secret have', () => {
      const read = { 'control-plane': new Set(CONFIG_VARIABLES.map((v) => v.name)), runtime: new Set([...CONFIG_TABLE.map((v) => v.name), 'NODE_ENV']) };
      for (const [component, d] of [['control-plane', controlPlane], ['runtime', runtime]] as const) {
        const env = containerOf(d).env ?? [];
        // A variable no process reads is allowed only as a part of another's value ($(POD_IP)).
        const referenced = new Set(env.flatMap((e) => [...(e.value ?? '').matchAll(/\$\(([A-Z_]+)\)/g)].map((m) => m[1]!)));
        for (const e of env) {
          expect(read[component].has(e.name) || referenced.has(e.name), `${component} reads ${e.name}`).toBe(true);
          const fromConfig = e.valueFrom?.configMapKeyRef;
          if (fromConfig !== undefined) expect(Object.keys(config.data), `${e.name}: ConfigMap key ${fromConfig.key}`).toContain(fromConfig.key);
          const fromSecret = e.valueFrom?.secretKeyRef;
          if (fromSecret !== undefined) expect(secretKeys.has(fromSecret.key), `${e.name}: Secret key ${fromSecret.key} in secret.example.yaml`).toBe(true);
        }
      }
    });

    it('budgets disruptions of each Deployment\'s pods', () => {
      const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget') as Array<K8sObject & { spec: { selector: { matchLabels: Record<string, string> }; maxUnavailable?: number } }>;
      for (const d of [controlPlane, runtime]) {
        const selecting = budgets.filter((b) => Object.entries(b.spec.selector.matchLabels).every(([k, v]) => d.spec.template.metadata.labels[k] === v));
        expect(selecting.map((b) => b.spec.maxUnavailable)).toEqual([1]);
      }
    });

    it('locks down the pool that runs strangers\' code: Localhost seccomp profile, no token, no capability, no escalation', () => {
      const pod = runtime.spec.template.spec;
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(pod.securityContext?.seccompProfile?.type).toBe('Localhost');
      const profile = pod.securityContext!.seccompProfile!.localhostProfile!;
      expect(profile).toMatch(/^profiles\/[a-z-]+\.json$/);
      expect(existsSync(`${ROOT}seccomp/${profile.slice('profiles/'.length)}`)).toBe(true);
      for (const d of [controlPlane, runtime]) {
        const sc = containerOf(d).securityContext;
        expect(sc).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
        expect(sc?.capabilities?.add).toBeUndefined();
      }
    });
  });
}

describe('overlay fleet: the registry', () => {
  const objects = renderKustomization(`${ROOT}overlays/fleet`);
  const controlPlane = deployment(objects, 'control-plane');
  const runtime = deployment(objects, 'runtime');

  it('puts both processes on the Redis registry, each node reached at its own pod IP under its pod name', () => {
    expect(envOf(controlPlane).get('RUNTIME_FLEET')?.value).toBe('redis');
    expect(envOf(controlPlane).get('REDIS_URL')?.valueFrom?.secretKeyRef?.key).toBe('redis-url');
    const env = envOf(runtime);
    expect(env.get('RUNTIME_FLEET')?.value).toBe('redis');
    expect(env.get('REDIS_URL')?.valueFrom?.secretKeyRef).toEqual(envOf(controlPlane).get('REDIS_URL')?.valueFrom?.secretKeyRef);
    expect(env.get('RUNTIME_NODE_ID')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.name');
    expect(env.get('POD_IP')?.valueFrom?.fieldRef?.fieldPath).toBe('status.podIP');
    // Kubernetes expands $(POD_IP) only from a variable defined before it.
    const names = (containerOf(runtime).env ?? []).map((e) => e.name);
    expect(names.indexOf('POD_IP')).toBeLessThan(names.indexOf('RUNTIME_INTERNAL_URL'));
    expect(env.get('RUNTIME_INTERNAL_URL')?.value).toBe('http://$(POD_IP):4001');
  });

  it('lets a draining node finish: preStop sleep plus the drain fit in the grace period', () => {
    const preStop = containerOf(runtime).lifecycle?.preStop?.exec?.command ?? [];
    const sleepS = preStop[0] === 'sleep' ? Number(preStop[1]) : 0;
    const drainS = Number(envOf(runtime).get('RUNTIME_DRAIN_MS')?.value) / 1000;
    expect(drainS).toBeGreaterThan(0);
    expect(sleepS + drainS).toBeLessThan(runtime.spec.template.spec.terminationGracePeriodSeconds!);
  });

  it('opens Redis\'s port to the nodes, and only that port', () => {
    const policy = objects.find((o) => o.metadata.name === 'platform-runtime-redis') as K8sObject & { spec: { egress: Array<{ ports: Array<{ port: number }> }> } };
    expect(policy.spec.egress.flatMap((e) => e.ports.map((p) => p.port))).toEqual([6379]);
  });
});

describe('the schema check', () => {
  it('fails an object the API would refuse', async () => {
    const [d] = renderKustomization(`${ROOT}overlays/single-node`).filter((o) => o.kind === 'Deployment') as Deployment[];
    (d!.spec.template.spec.containers[0] as unknown as { ports: unknown }).ports = [{ containerPort: 'http' }];
    await expect(validate(d!)).rejects.toThrow(/containerPort/);
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'x' }, spec: { maxUnavailable: 1, unhealthyPodEvictionPolicy: 'Sometimes' } };
    await expect(validate(pdb)).rejects.toThrow(/unhealthyPodEvictionPolicy/);
  });

  it('finds a field the API does not know', () => {
    const [d] = renderKustomization(`${ROOT}overlays/single-node`).filter((o) => o.kind === 'Deployment') as Deployment[];
    (d!.spec.template.spec.containers[0] as unknown as Record<string, unknown>).readinesProbe = { httpGet: { path: '/readyz', port: 'http' } };
    expect(unknownFields([d!])).toEqual([expect.stringMatching(/readinesProbe.* does not exist in type 'IContainer'/)]);
  }, 30_000);
});

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

describe('the renderer', () => {
  it.skipIf(!kubectl)('renders what kubectl kustomize renders (kubectl installed here)', () => {
    const key = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
    for (const overlay of Object.keys(OVERLAYS)) {
      const out = spawnSync('kubectl', ['kustomize', `${ROOT}overlays/${overlay}`], { encoding: 'utf8' });
      expect(out.status, out.stderr).toBe(0);
      const theirs = parseAllDocuments(out.stdout).map((d) => d.toJS() as K8sObject).sort((a, b) => key(a).localeCompare(key(b)));
      const ours = renderKustomization(`${ROOT}overlays/${overlay}`).sort((a, b) => key(a).localeCompare(key(b)));
      expect(ours).toEqual(theirs);
    }
  });
});
