/**
 * @module json-schema/pointer
 * Resolution of the local references a schema may use: `#`, `#/json/pointer` (RFC 6901 inside a
 * URI fragment) and `#anchor` (`$anchor` or `$dynamicAnchor` names).
 */

/**
 * What a local `$ref` resolves to; `undefined` when it does not resolve inside the document.
 * @example resolveLocalRef({ $defs: { a: true } }, '#/$defs/a', new Map()) // true
 */
export function resolveLocalRef(root: unknown, ref: string, anchors: ReadonlyMap<string, unknown>): unknown {
  const fragment = ref.slice(1);
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return anchors.get(fragment);
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  let node: unknown = root;
  for (const raw of decoded.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}
