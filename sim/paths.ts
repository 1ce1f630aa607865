// Field paths in the findings contract's syntax, and the Pod's strategic-merge list keys.
//   spec.containers[name=kafka].resources.requests.cpu
//   spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution   (atomic list)
//   metadata.labels["app.kubernetes.io/name"]                                        (quoted map key)
// The simulator states its ground truth in these paths, and resolves the JSON pointers of
// webhook patches into them, so both must follow the same list rules as koperator's diff.
import { isObject, type JsonValue } from './json';

export type PathSegment = { key: string } | { mergeKey: string; value: string | number };

/** Lists merged by key (everything else in a Pod is an atomic list, replaced whole). */
const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'];
const MERGE_KEYS: ReadonlyMap<string, string> = new Map<string, string>([
  ['metadata.ownerReferences', 'uid'],
  ['spec.volumes', 'name'],
  ['spec.imagePullSecrets', 'name'],
  ['spec.hostAliases', 'ip'],
  ['spec.topologySpreadConstraints', 'topologyKey'],
  ['spec.schedulingGates', 'name'],
  ['spec.resourceClaims', 'name'],
  ...CONTAINER_LISTS.flatMap((c): Array<[string, string]> => [
    [`spec.${c}`, 'name'],
    [`spec.${c}[].ports`, 'containerPort'],
    [`spec.${c}[].env`, 'name'],
    [`spec.${c}[].volumeMounts`, 'mountPath'],
    [`spec.${c}[].volumeDevices`, 'devicePath'],
  ]),
]);

/** The merge key of the list at `segments` (by shape: list items collapse to `[]`), or null if atomic. */
export function mergeKeyOf(segments: readonly PathSegment[]): string | null {
  const shape = segments
    .map((s) => ('key' in s ? s.key : '[]'))
    .join('.')
    .replace(/\.\[\]/g, '[]');
  return MERGE_KEYS.get(shape) ?? null;
}

const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if ('key' in s) {
      if (PLAIN_KEY.test(s.key)) out += out === '' ? s.key : `.${s.key}`;
      else out += `[${JSON.stringify(s.key)}]`;
    } else {
      out += `[${s.mergeKey}=${s.value}]`;
    }
  }
  return out;
}

export function parsePath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') {
      i++;
      continue;
    }
    if (path[i] === '[') {
      if (path[i + 1] === '"') {
        let j = i + 2;
        while (j < path.length && !(path[j] === '"' && path[j - 1] !== '\\')) j++;
        out.push({ key: JSON.parse(path.slice(i + 1, j + 1)) as string });
        i = j + 2;
      } else {
        const close = path.indexOf(']', i);
        const [k, v] = path.slice(i + 1, close).split('=');
        out.push({ mergeKey: k, value: /^\d+$/.test(v) && k === 'containerPort' ? Number(v) : v });
        i = close + 1;
      }
      continue;
    }
    let j = i;
    while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
    out.push({ key: path.slice(i, j) });
    i = j;
  }
  return out;
}

/** The value at a contract path, or undefined. */
export function getPath(doc: unknown, path: string | readonly PathSegment[]): unknown {
  const segments = typeof path === 'string' ? parsePath(path) : path;
  let cur: unknown = doc;
  for (const s of segments) {
    if ('key' in s) {
      if (!isObject(cur)) return undefined;
      cur = cur[s.key];
    } else {
      if (!Array.isArray(cur)) return undefined;
      cur = cur.find((e) => isObject(e) && e[s.mergeKey] === s.value);
    }
  }
  return cur;
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Resolves an RFC 6902 pointer against the document it applies to, into a contract path:
 * list indexes of merge-keyed lists become `[key=value]` (for `-` or an insert, the key comes
 * from the operation's value); an atomic list ends the path, since it is one field as a whole.
 */
export function pointerToPath(doc: unknown, pointer: string, opValue?: JsonValue): string {
  const tokens = pointer.split('/').slice(1).map(unescapePointer);
  const segments: PathSegment[] = [];
  let cur: unknown = doc;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (Array.isArray(cur)) {
      const mk = mergeKeyOf(segments);
      if (mk === null) break;
      // The last token of an add/replace names the element the operation writes: take its key
      // from the operation's value; otherwise from the element now at that index.
      const isLast = i === tokens.length - 1;
      const element: unknown =
        isLast && isObject(opValue) && opValue[mk] !== undefined
          ? opValue
          : t === '-'
            ? undefined
            : cur[Number(t)];
      const keyValue = isObject(element) ? element[mk] : undefined;
      if (typeof keyValue !== 'string' && typeof keyValue !== 'number') break;
      segments.push({ mergeKey: mk, value: keyValue });
      cur = element;
      continue;
    }
    segments.push({ key: t });
    cur = isObject(cur) ? cur[t] : undefined;
  }
  return formatPath(segments);
}

/** The JSON pointer of a contract path in `doc`, or null where the path does not resolve. */
export function pathToPointer(doc: unknown, path: string): string | null {
  let cur: unknown = doc;
  const tokens: string[] = [];
  for (const s of parsePath(path)) {
    if ('key' in s) {
      tokens.push(escapePointer(s.key));
      cur = isObject(cur) ? cur[s.key] : undefined;
    } else {
      if (!Array.isArray(cur)) return null;
      const idx = cur.findIndex((e) => isObject(e) && e[s.mergeKey] === s.value);
      if (idx < 0) return null;
      tokens.push(String(idx));
      cur = cur[idx];
    }
  }
  return '/' + tokens.join('/');
}
