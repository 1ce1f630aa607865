// The fix impact a findings document carries (summary.fixImpact), for the renderers.
import { isFixImpact, type FixImpact } from '../analyze/fix-impact';
import type { FindingsDocument } from '../model/findings';

/** The document's fix impact, or null where there is none to show (no recreation, or findings made before it existed). */
export function docFixImpact(doc: Pick<FindingsDocument, 'summary'>): FixImpact | null {
  const fi = doc.summary.fixImpact;
  return isFixImpact(fi) && fi.recreations > 0 ? fi : null;
}
