// Settings of one analysis run; the CLI flags and the YAML config file both fill this.
export interface AnalysisOptions {
  /** A loop is at least this many consecutive operator-initiated recreations. */
  loopMinCount: number;
  /** ...with no gap between two of them longer than this. */
  loopMaxGapSeconds: number;
  /** Keep only deletions in [since, until] (RFC 3339). */
  since?: string;
  until?: string;
  namespaces?: string[];
  kafkaClusters?: string[];
  /** The operator's user names; learned from the logs when empty. */
  operatorUsers?: string[];
  /** spec.taintedBrokersSelector matchLabels, when known; otherwise the operator's taint log line decides. */
  taintedBrokersSelector?: Record<string, string>;
  /**
   * The newest event read, kept or not (the ingest's summary, or the facts objects' headers):
   * "active" is judged against the later of it and the newest fact.
   */
  newestEventAt?: string | null;
  /** Env var names whose values findings may show; others appear as "<redacted, changed>". */
  envAllowlist?: string[];
  /**
   * Users whose writes are an autoscaler's, beside the VPA updater's service account, which
   * always is: drift severity `autoscaler`, and the reverts summary.fixImpact counts avoidable.
   */
  autoscalerUsers?: string[];
  /**
   * Each replayed operator's version where known (`--nifikop-version`), by profile id: its
   * steps replay it. Unknown, NiFiKop is taken to be of its newest steps and findings say so.
   */
  operatorVersions?: Record<string, string>;
  /**
   * Where a version of operatorVersions was read, when no flag gave it: the write of the
   * operator's own Deployment whose image showed it (findings' evidence names it).
   */
  operatorVersionSources?: Record<string, string>;
}

/**
 * The options with each operator version the data showed (its Deployment's image) where no
 * flag gave one: a flag wins over the image.
 */
export function withLearnedVersions(
  opts: AnalysisOptions,
  learned: Readonly<Record<string, { version: string; seen: string }>>,
): AnalysisOptions {
  const ids = Object.keys(learned).filter((id) => opts.operatorVersions?.[id] === undefined);
  if (ids.length === 0) return opts;
  return {
    ...opts,
    operatorVersions: {
      ...opts.operatorVersions,
      ...Object.fromEntries(ids.map((id) => [id, learned[id].version])),
    },
    operatorVersionSources: {
      ...opts.operatorVersionSources,
      ...Object.fromEntries(ids.map((id) => [id, learned[id].seen])),
    },
  };
}

export function defaultAnalysisOptions(): AnalysisOptions {
  return { loopMinCount: 3, loopMaxGapSeconds: 600 };
}
