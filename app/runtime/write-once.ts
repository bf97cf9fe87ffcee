/**
 * Comments agate posts exactly once across crashes and retries. A comment is not idempotent: a
 * job that posted one and died before it could note so would post it again on its retry, and a
 * retry that decides afresh may no longer see the reason to post it at all. So each is recorded
 * first, in the write-intent ledger under a key naming what it is for, with a random marker; it
 * is sent with the marker hidden in its body (an HTML comment GitHub does not show), and the
 * ledger is given GitHub's id after. A run that finds its intent already recorded reads the
 * issue's comments first: one of the App's own with the marker is the write made before the
 * crash. A retried job finishes every intent of its own scope (`job:<id>`), also those its new
 * decision no longer calls for: what the first run decided to say is said, once.
 *
 * Only the App's own comments count: anyone can type the marker into a comment of theirs.
 */
import { randomBytes } from "node:crypto";
import type { WriteIntent } from "../../schemas/store.js";
import type { GitHubAdapter, IssueCommentFact } from "../github/adapter.js";
import type { WriteIntentLedger } from "../store/ports/write-intent-ledger.js";

/** The hidden part of a comment written once: how a retry recognises it on GitHub. */
export const onceMarker = (token: string) => `<!-- agate:once ${token} -->`;

export type WriteOnceGitHub = Pick<
  GitHubAdapter,
  "comment" | "issueComments" | "owner" | "repo" | "appLogin"
>;

/** What came of a write: made now, found made by an earlier run, or known made. */
export type Written = "posted" | "found" | "done";

/**
 * The scope of what one part of a job writes (`job:12:gate`): its retry finishes them. A run
 * with no job id (a test calling a handler directly) has a scope of its own.
 */
export function jobScope(jobId: number | undefined, part: string): string {
  return `${jobId === undefined ? `run:${randomBytes(8).toString("hex")}` : `job:${jobId}`}:${part}`;
}

/** An intent as recorded: `created` false when an earlier run recorded it (and may have sent it). */
export interface Intended {
  intent: WriteIntent;
  created: boolean;
}

/** A target's comments, as one run lists them. */
export type CommentsOf = (target: number) => Promise<readonly IssueCommentFact[]>;

export class WriteOnce {
  readonly #repository: string;
  readonly #listed = new Map<number, Promise<readonly IssueCommentFact[]>>();

  constructor(
    private readonly github: WriteOnceGitHub,
    private readonly ledger: WriteIntentLedger,
    /** The job run's scope (jobScope). */
    readonly scope: string,
    /**
     * The caller's own reader when its pass lists the comments anyway. Listed once per target
     * either way: what an earlier run posted was there before this run's first look.
     */
    private readonly commentsOf?: CommentsOf,
  ) {
    this.#repository = `${github.owner}/${github.repo}`;
  }

  #comments(target: number): Promise<readonly IssueCommentFact[]> {
    let listed = this.#listed.get(target);
    if (!listed) {
      listed = this.commentsOf?.(target) ?? this.github.issueComments(target);
      this.#listed.set(target, listed);
    }
    return listed;
  }

  /**
   * Posts `body` on issue or pull request `target`, once for `key` (unique in the database:
   * name what it answers, such as the comment a reply is to, or the job and its n-th comment).
   */
  async comment(key: string, target: number, body: string): Promise<Written> {
    return this.make(await this.intend(key, target, body));
  }

  /**
   * Records a comment to post (`make` posts it), before the writes it explains: a crash after
   * those leaves it recorded, and the retry posts it (`finish`) even if it no longer decides to.
   */
  intend(key: string, target: number, body: string): Promise<Intended> {
    return this.ledger.recordWriteIntent({
      key,
      scope: this.scope,
      repository: this.#repository,
      target,
      kind: "comment",
      body,
      marker: randomBytes(8).toString("hex"),
    });
  }

  /** Posts a recorded comment unless it was (an intent an earlier run recorded is looked for). */
  make({ intent, created }: Intended): Promise<Written> {
    return this.#make(intent, !created);
  }

  /**
   * Makes every write of this scope an earlier run recorded and may not have made (after a
   * crash, or a failed call). How many were posted or found.
   */
  async finish(): Promise<number> {
    const pending = await this.ledger.listPendingWriteIntents({ scope: this.scope });
    for (const intent of pending) await this.#make(intent, true);
    return pending.length;
  }

  async #make(intent: WriteIntent, mayExist: boolean): Promise<Written> {
    if (intent.github_id !== null) return "done";
    const marker = onceMarker(intent.marker);
    if (mayExist) {
      const login = this.github.appLogin.toLowerCase();
      const found = (await this.#comments(intent.target)).find(
        (c) => c.login.toLowerCase() === login && c.body.includes(marker),
      );
      if (found) {
        await this.ledger.completeWriteIntent({ key: intent.key, githubId: found.id });
        return "found";
      }
    }
    const id = await this.github.comment(intent.target, `${intent.body}\n\n${marker}`);
    await this.ledger.completeWriteIntent({ key: intent.key, githubId: id });
    return "posted";
  }
}
