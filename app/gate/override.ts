/**
 * A maintainer's way out for a commit agate cannot accept on evidence (a pull request that must
 * change the evidence workflow, or one too large to list): `/agate accept <sha> <reason>` in a
 * comment, from a maintainer by the one maintainer test (app/github/maintainers.ts, the base
 * config's `escalation.maintainers`). It is stored as an override of that exact head on its
 * base, with who and why; a push or a retarget voids it.
 *
 * The command comment is answered once and its override stored once, whichever run of the job
 * gets there: both are keyed by the comment (its URL), so a run retried after a crash finds the
 * override it stored and the reply it posted (app/runtime/write-once.ts).
 */

import { overrideAcceptedComment, overrideRefusedComment } from "../../checks/gate/comments.js";
import { judgeOverride, parseOverrideComment } from "../../checks/gate/override.js";
import { shortSha } from "../../checks/markdown.js";
import type { OverrideJob } from "../../schemas/jobs/gate.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { isMaintainer } from "../github/maintainers.js";
import type { ImmutableReads } from "../github/reads.js";
import { jobScope, WriteOnce } from "../runtime/write-once.js";
import type { OverrideStore } from "../store/ports/override-store.js";
import type { WriteIntentLedger } from "../store/ports/write-intent-ledger.js";
import type { PassResult } from "./pull-request.js";

/** The `gate.override` job: a new comment on a pull request that may be `/agate accept`. */
export async function runOverrideJob(
  job: OverrideJob,
  deps: {
    github: GitHubAdapter;
    store: OverrideStore & WriteIntentLedger;
    /** The base config, read by SHA (its maintainers decide who may accept). */
    reads: ImmutableReads;
    now: () => Date;
    /** A gate pass of the pull request, now with the override stored. */
    pass: (number: number) => Promise<PassResult>;
    /** The job: a run with none (a test) keys its reply and override by a scope of its own. */
    jobId?: number;
  },
): Promise<string> {
  const { github } = deps;
  const { number, comment } = job;
  const command = parseOverrideComment(comment.body);
  if (!command) return `#${number}: not an agate command`;
  const writes = new WriteOnce(github, deps.store, jobScope(deps.jobId, "override"));
  // GitHub's URL names the comment for good; one reply and one override per comment.
  const answered = comment.html_url ?? writes.scope;
  const reply = (body: string) => writes.comment(`reply:${answered}`, number, body);
  const who = comment.user.login;
  if (command.kind === "invalid") {
    await reply(overrideRefusedComment(null, command.problem));
    return `#${number}: /agate command refused: ${command.problem}`;
  }
  const pr = await github.pullRequest(number);
  if (pr.state !== "open") {
    await reply(overrideRefusedComment(null, "the pull request is closed"));
    return `#${number}: override on a closed pull request refused`;
  }
  // The maintainers of the base the pull request targets now, by the one maintainer test.
  const config = await deps.reads.config(github, pr.base_sha);
  const maintainers = config.status === "ok" ? config.config.escalation.maintainers : [];
  const commenter = { login: who, type: comment.user.type };
  const verdict = judgeOverride({
    command,
    commenter,
    maintainer: await isMaintainer(github, commenter, maintainers),
    maintainers,
    author: pr.author.login,
    headSha: pr.head_sha,
  });
  if (!verdict.ok) {
    await reply(overrideRefusedComment(command.sha, verdict.problem));
    return `${pr.repository}#${number}: override by ${who} refused: ${verdict.problem}`;
  }
  await deps.store.appendOverride(
    {
      repository: pr.repository,
      pull_number: number,
      head_sha: pr.head_sha,
      base_ref: pr.base_ref,
      by: who,
      reason: command.reason,
      comment_url: comment.html_url,
      at: deps.now().toISOString(),
    },
    { dedupeKey: `override:${answered}` },
  );
  const result = await deps.pass(number);
  await reply(
    overrideAcceptedComment({
      headSha: pr.head_sha,
      by: who,
      reason: command.reason,
      title: result.decision?.title ?? null,
    }),
  );
  return `${pr.repository}#${number}: ${who} accepted ${shortSha(pr.head_sha)} by override`;
}
