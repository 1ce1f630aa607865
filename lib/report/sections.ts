// The sections of the table and Markdown views that `--only` can pick. Failed inputs,
// warnings and the headline are not among them: a report cut down to its loops must still
// say that half the inputs could not be read.
export const SECTIONS = ['loops', 'fights', 'drifts', 'recreations', 'inputs'] as const;
export type Section = (typeof SECTIONS)[number];

/** `loops,fights` (repeatable, comma-separated) → the sections, or what was wrong. */
export function parseSections(values: readonly string[]): { sections: Section[] } | { error: string } {
  const sections: Section[] = [];
  for (const raw of values.flatMap((v) => v.split(','))) {
    const name = raw.trim().toLowerCase();
    const known = SECTIONS.find((s) => s === name || `${s.replace(/s$/, '')}` === name);
    if (!known) return { error: `"${raw.trim()}" is not a section (sections: ${SECTIONS.join(', ')})` };
    if (!sections.includes(known)) sections.push(known);
  }
  if (sections.length === 0) return { error: `needs a section: ${SECTIONS.join(', ')}` };
  return { sections };
}

/** Whether a view given `only` (undefined: everything) prints `section`. */
export function shows(only: readonly Section[] | undefined, section: Section): boolean {
  return !only || only.includes(section);
}
