// Reads the value a contract path (findings-contract.md, "Path syntax") points at, so
// the analysis can ask "did this write change that field?" of any two pod states.
import { isDeepStrictEqual } from 'util';
import { canonicalQuantity } from '../k8s/quantity';

type Step = { key: string } | { matchKey: string; matchValue: string };

export function parseFieldPath(path: string): Step[] | null {
  const steps: Step[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') i++;
    if (path.startsWith('["', i)) {
      const end = path.indexOf('"]', i + 2);
      if (end < 0) return null;
      steps.push({ key: path.slice(i + 2, end) });
      i = end + 2;
    } else if (path[i] === '[') {
      const end = path.indexOf(']', i);
      const eq = path.indexOf('=', i);
      if (end < 0 || eq < 0 || eq > end) return null;
      steps.push({ matchKey: path.slice(i + 1, eq), matchValue: path.slice(eq + 1, end) });
      i = end + 1;
    } else {
      let j = i;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      if (j === i) return null;
      steps.push({ key: path.slice(i, j) });
      i = j;
    }
  }
  return steps;
}

export function valueAtPath(obj: unknown, path: string): unknown {
  const steps = parseFieldPath(path);
  if (!steps) return undefined;
  let cur: unknown = obj;
  for (const s of steps) {
    if ('key' in s) {
      if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
      cur = (cur as Record<string, unknown>)[s.key];
    } else {
      if (!Array.isArray(cur)) return undefined;
      cur = cur.find(
        (el) =>
          el &&
          typeof el === 'object' &&
          String((el as Record<string, unknown>)[s.matchKey]) === s.matchValue,
      );
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

/**
 * Equal as Kubernetes would store them: quantities by their canonical string (a webhook's
 * `0.5` is the API server's `500m`, but `2147483648` is not `2Gi`: koperator's diff sees those
 * as different), everything else structurally.
 */
export function sameFieldValue(a: unknown, b: unknown): boolean {
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if ((typeof a === 'string' || typeof a === 'number') && (typeof b === 'string' || typeof b === 'number')) {
    if (a === b) return true;
    const ca = canonicalQuantity(a);
    return ca !== null && ca === canonicalQuantity(b);
  }
  return isDeepStrictEqual(a, b);
}

/** True when `path` or something under or above it is named by `changedPath`. */
export function pathsOverlap(path: string, changedPath: string): boolean {
  return (
    path === changedPath ||
    path.startsWith(changedPath + '.') ||
    path.startsWith(changedPath + '[') ||
    changedPath.startsWith(path + '.') ||
    changedPath.startsWith(path + '[')
  );
}
