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
