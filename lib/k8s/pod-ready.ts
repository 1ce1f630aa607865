// A pod's Ready condition as a status write sets it. The kubelet's status patches name only
// the conditions that changed, so a body without a Ready condition says nothing about it.

/** `true`/`false` for a Ready condition of status True/False in `body.status`, else null. */
export function readyInStatusBody(body: unknown): boolean | null {
  if (!isObject(body) || !isObject(body.status)) return null;
  const conditions = body.status.conditions;
  if (!Array.isArray(conditions)) return null;
  for (const c of conditions) {
    if (!isObject(c) || c.type !== 'Ready') continue;
    if (c.status === 'True') return true;
    if (c.status === 'False') return false;
  }
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
