// Whether a decoded last-applied annotation is what koperator's annotator writes. koperator
// stamps the desired pod as Go marshals it (the typed round trip: `status: {}` and
// `resources: {}` always there, quantities canonical, unknown fields and empty values gone),
// so its own annotation comes back unchanged from that marshalling. One that does not was
// written another way, by hand most often, and the intent diff of the fixed operator sees
// the difference as a change: it restarts the broker once for the form alone.
import { isObject } from '../k8s/json-value';
import { formatPath, type PathSegment } from '../k8s/paths';

export interface AnnotationForm {
  /** The annotation differs from koperator's marshalling of its own content. */
  handWritten: boolean;
  /** What the annotator always writes and this annotation lacks, as `path: value`. */
  lacks: string[];
  /** What this annotation has and the annotator never writes (unknown or empty fields). */
  extra: string[];
  /** Values the annotator writes another way (`path: "1000m" → "1"`). */
  rewritten: string[];
}

export function annotationForm(written: unknown, marshalled: unknown): AnnotationForm {
  const form: AnnotationForm = { handWritten: false, lacks: [], extra: [], rewritten: [] };
  walk(written, marshalled, [], form);
  form.handWritten = form.lacks.length + form.extra.length + form.rewritten.length > 0;
  return form;
}

/** The differences in one phrase: `status: {}` and the like, a few at most. */
export function describeForm(form: AnnotationForm, max = 4): string {
  const parts = [...form.lacks, ...form.extra.map((p) => `${p} (dropped)`), ...form.rewritten];
  const shown = parts.slice(0, max).join(', ');
  return parts.length > max ? `${shown} and ${parts.length - max} more` : shown;
}

function walk(w: unknown, m: unknown, segs: PathSegment[], form: AnnotationForm): void {
  if (isObject(w) && isObject(m)) {
    for (const [k, v] of Object.entries(m))
      if (!(k in w)) form.lacks.push(`${formatPath([...segs, k])}: ${short(v)}`);
    for (const k of Object.keys(w)) {
      if (!(k in m)) form.extra.push(formatPath([...segs, k]));
      else walk(w[k], m[k], [...segs, k], form);
    }
    return;
  }
  // Named elements (containers, volumes, env) are followed by name; any other list is one value.
  if (Array.isArray(w) && Array.isArray(m) && w.length === m.length && w.every((e, i) => sameName(e, m[i]))) {
    w.forEach((e, i) => walk(e, m[i], [...segs, { key: 'name', value: (e as { name: string }).name }], form));
    return;
  }
  if (JSON.stringify(w) !== JSON.stringify(m))
    form.rewritten.push(`${formatPath(segs)}: ${short(w)} → ${short(m)}`);
}

function sameName(a: unknown, b: unknown): boolean {
  return isObject(a) && isObject(b) && typeof a.name === 'string' && a.name === b.name;
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? 'null';
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}
