import type { GitHubClient } from "../github/adapter.js";
import type { ImmutableReads } from "../github/reads.js";
import type { Store } from "../store/store.js";
import type { EvaluatorDeps } from "./evaluator-job.js";
import type { EvidenceCache } from "./evidence.js";
import type { RequiredCheckReader } from "./required-check.js";
import type { TraceReportCache } from "./trace-report.js";

/** What every gate job handler is given: the store, the clock and GitHub's clients. */
export interface GateDeps {
  store: Store;
  now: () => Date;
  /** An installation-authenticated client (Probot's `auth(installationId)`). */
  octokitFor(installationId: number): Promise<GitHubClient>;
  /** Authenticated as the App itself (not an installation): the reconcile pass's installations. */
  appOctokit(): Promise<GitHubClient>;
  /** The App's own slug, so only its `agate` check runs count as the gate. */
  appSlug(): Promise<string>;
  /** Immutable reads shared across jobs; a fresh one per job when absent. */
  reads?: ImmutableReads;
  evidence?: EvidenceCache;
  traceReports?: TraceReportCache;
  /** Whether base branches require agate, read and reused across jobs; absent: not read. */
  setup?: RequiredCheckReader;
  /** How to reach the evaluator; absent: a configured llm or command evaluator is unavailable. */
  evaluator?: EvaluatorDeps;
  log?: (line: string) => void;
  /**
   * An earlier run of this job failed or stopped part-way: the pass must not trust that what it
   * finds stored was followed by the jobs it calls for (see queueEntryPriorityPasses).
   */
  retried?: boolean;
  /**
   * The job being run: what it writes once (app/github/write-once.ts) is keyed by it, so its
   * retry finds what an earlier run of it recorded. Absent when a test runs a handler directly.
   */
  jobId?: number;
}
