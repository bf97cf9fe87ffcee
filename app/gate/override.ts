/**
 * A maintainer's way out for a commit agate cannot accept on evidence (a pull request that must
 * change the evidence workflow, or one too large to list): `/agate accept <sha> <reason>` in a
 * comment. It is stored as an override of that exact head, with who and why; a push voids it.
 */

import { overrideAcceptedComment, overrideRefusedComment } from "../../checks/gate/comments.js";
import { judgeOverride, parseOverrideComment } from "../../checks/gate/override.js";
import { shortSha } from "../../checks/markdown.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { Store } from "../store/store.js";
import type { EvaluationResult } from "./evaluate.js";

interface CommentPayload {
  action?: string;
  issue?: { number: number; pull_request?: unknown };
  comment?: { body?: string; html_url?: string; user?: { login: string; type: string } };
}

export async function handleOverrideComment(
  payload: CommentPayload,
  deps: {
    github: GitHubAdapter;
    store: Store;
    now: () => Date;
    /** Evaluates the pull request again, now with the override stored. */
    evaluate: (number: number) => Promise<EvaluationResult>;
    log?: ((line: string) => void) | undefined;
  },
): Promise<void> {
  const { github } = deps;
  const number = payload.issue?.number;
  const comment = payload.comment;
  // Only a new comment on a pull request can be a command; an edit would let a later change of
  // words accept a commit nobody looked at again.
  if (payload.action !== "created" || !number || !payload.issue?.pull_request || !comment?.user) {
    return;
  }
  const command = parseOverrideComment(comment.body ?? "");
  if (!command) return;
  const who = comment.user.login;
  if (command.kind === "invalid") {
    await github.comment(number, overrideRefusedComment(null, command.problem));
    return;
  }
  const pr = await github.pullRequest(number);
  if (pr.state !== "open") {
    await github.comment(number, overrideRefusedComment(null, "the pull request is closed"));
    return;
  }
  const verdict = judgeOverride({
    command,
    commenter: { login: who, type: comment.user.type, permission: await github.permission(who) },
    author: pr.author.login,
    headSha: pr.head_sha,
  });
  if (!verdict.ok) {
    await github.comment(number, overrideRefusedComment(command.sha, verdict.problem));
    deps.log?.(`${pr.repository}#${number}: override by ${who} refused: ${verdict.problem}`);
    return;
  }
  await deps.store.appendOverride({
    repository: pr.repository,
    pull_number: number,
    head_sha: pr.head_sha,
    base_ref: pr.base_ref,
    by: who,
    reason: command.reason,
    comment_url: comment.html_url ?? null,
    at: deps.now().toISOString(),
  });
  const result = await deps.evaluate(number);
  await github.comment(
    number,
    overrideAcceptedComment({
      headSha: pr.head_sha,
      by: who,
      reason: command.reason,
      title: result.decision?.title ?? null,
    }),
  );
  deps.log?.(`${pr.repository}#${number}: ${who} accepted ${shortSha(pr.head_sha)} by override`);
}
