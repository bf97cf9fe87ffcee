/** The keys most of the store's queries take. */

/** One pull request of one repository. */
export interface PullRequestKey {
  repository: string;
  pullNumber: number;
}

/** One exact head of a pull request: what a record, an override or an observation binds to. */
export interface HeadKey extends PullRequestKey {
  headSha: string;
}

/**
 * A key that makes an append once: a run of a job retried after a crash appends with the key its
 * first run used, and gets that run's row back instead of a second one (enforced by a unique
 * index). Derived from the job (or what it answers), never from the time.
 */
export interface AppendOnce {
  dedupeKey?: string;
}
