import type { Fact } from '../model/facts';
import type { Loop, Recreation } from '../model/findings';
import type { AnalysisOptions } from './options';

export interface AnalysisResult {
  recreations: Recreation[];
  loops: Loop[];
}

// Placeholder until the analysis core lands (issue 3): reports nothing.
export function analyzeFacts(_facts: Fact[], _opts: AnalysisOptions): AnalysisResult {
  return { recreations: [], loops: [] };
}
