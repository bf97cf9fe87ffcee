// Pull requests: their files and commits are computed from git (merge base to head), as GitHub's.
import * as s from "../serialize.js";
import type { Review } from "../state.js";
import { Unprocessable } from "../world.js";
import * as context from "./context.js";
import { bodyOf, type Ctx, json, numberParam, type OperationTable, repoOf } from "./context.js";

function pullOf(ctx: Ctx) {
  const repo = repoOf(ctx);
  return { repo, pull: ctx.world.pull(repo, numberParam(ctx, "pull_number")) };
}

/** A write to a pull request: the pull request, the request's body, and the token that writes. */
function pullWrite(ctx: Ctx) {
  return { ...pullOf(ctx), body: bodyOf(ctx), token: context.tokenOf(ctx) };
}

function range(ctx: Ctx) {
  const { repo, pull } = pullOf(ctx);
  const head = ctx.world.pullHeadSha(repo, pull);
  const base = ctx.world.branchSha(repo, pull.pull.baseRef);
  if (!head || !base)
    throw new Unprocessable("The head or base branch of this pull request is gone");
  return { repo, pull, head, mergeBase: repo.git.mergeBase(base, head) ?? base };
}

/** GitHub's cap on `pulls/list-files`. */
const MAX_FILES = 3000;

const EVENTS: Record<string, Review["state"]> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

export const pullOperations: OperationTable = {
  "pulls/get": {
    auth: "token",
    permission: ["pull_requests", "read"],
    handle: (ctx) => {
      const accept = String(ctx.headers.accept ?? "");
      if (/application\/vnd\.github(\.v3)?\.(diff|patch)/.test(accept)) {
        const { repo, head, mergeBase } = range(ctx);
        return { status: 200, raw: repo.git.diffText(mergeBase, head), contentType: "text/plain" };
      }
      const { repo, pull } = pullOf(ctx);
      return json(200, ctx.world.pullJson(repo, pull, true));
    },
  },

  "pulls/update": {
    auth: "token",
    permission: ["pull_requests", "write"],
    handle: (ctx) => {
      const { repo, pull, body, token } = pullWrite(ctx);
      // Title, body, state and base in one call: one `edited` (naming every change), then
      // `closed` / `reopened`; a new base gets a new test merge commit.
      void ctx.world.updateIssue(repo, pull, token.actor, {
        ...(typeof body.title === "string" ? { title: body.title } : {}),
        ...(typeof body.body === "string" ? { body: body.body } : {}),
        ...(body.state === "open" || body.state === "closed" ? { state: body.state } : {}),
        ...(typeof body.base === "string" ? { base: body.base } : {}),
        ...(typeof body.maintainer_can_modify === "boolean"
          ? { maintainerCanModify: body.maintainer_can_modify }
          : {}),
      });
      return json(200, ctx.world.pullJson(repo, pull, true));
    },
  },

  "pulls/list": {
    auth: "token",
    permission: ["pull_requests", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const state = context.queryString(ctx, "state") ?? "open";
      const head = context.queryString(ctx, "head");
      const base = context.queryString(ctx, "base");
      const pulls = [...repo.issues.values()]
        .filter((item) => item.pull)
        .filter((item) => state === "all" || item.state === state)
        .filter((item) => !base || item.pull?.baseRef === base)
        // `head` is `owner:branch`, the owner being the head repository's (a fork's owner).
        .filter((item) => {
          if (!head || !item.pull) return true;
          const [owner, branch] = head.includes(":") ? head.split(":", 2) : [undefined, head];
          return (
            (owner === undefined ||
              item.pull.headRepo.owner.login.toLowerCase() === owner.toLowerCase()) &&
            item.pull.headRef === branch
          );
        })
        .sort((a, b) => b.number - a.number);
      return context.listPage(ctx, pulls, (item) => ctx.world.pullJson(repo, item, false));
    },
  },

  "pulls/list-files": {
    auth: "token",
    permission: ["pull_requests", "read"],
    handle: (ctx) => {
      const { repo, head, mergeBase } = range(ctx);
      // "Responses include a maximum of 3000 files" (GitHub's REST docs); `changed_files` on
      // the pull request still counts them all.
      const files = repo.git.diff(mergeBase, head).slice(0, MAX_FILES);
      return context.listPage(ctx, files, (file) => s.diffEntry(ctx.world.urls, repo, file, head));
    },
  },

  "pulls/list-commits": {
    auth: "token",
    permission: ["pull_requests", "read"],
    handle: (ctx) => {
      const { repo, head, mergeBase } = range(ctx);
      const commits = repo.git.commitsBetween(mergeBase, head).slice(0, 250);
      return context.listPage(ctx, commits, (sha) =>
        s.commit(ctx.world.urls, repo, repo.git.readCommit(sha), (email) =>
          ctx.world.accountByEmail(email),
        ),
      );
    },
  },

  "pulls/list-reviews": {
    auth: "token",
    permission: ["pull_requests", "read"],
    handle: (ctx) => {
      const { repo, pull } = pullOf(ctx);
      const reviews = pull.pull.reviews.filter((review) => review.state !== "PENDING");
      return context.listPage(ctx, reviews, (review) =>
        s.review(ctx.world.urls, repo, pull, review),
      );
    },
  },

  "pulls/create-review": {
    auth: "token",
    permission: ["pull_requests", "write"],
    handle: (ctx) => {
      const { repo, pull, body, token } = pullWrite(ctx);
      const event = typeof body.event === "string" ? body.event : undefined;
      const state = event ? EVENTS[event] : "PENDING";
      if (!state)
        throw new Unprocessable("Unprocessable Entity", [{ field: "event", code: "invalid" }]);
      if ((state === "CHANGES_REQUESTED" || state === "COMMENTED") && !body.body) {
        throw new Unprocessable("Unprocessable Entity", [
          {
            message: `Review Can not ${event === "COMMENT" ? "comment" : "request changes"} on pull request without a body`,
          },
        ]);
      }
      const { review } = ctx.world.submitReview(repo, pull, {
        state,
        body: typeof body.body === "string" ? body.body : "",
        user: token.actor,
        ...(typeof body.commit_id === "string" ? { commitId: body.commit_id } : {}),
      });
      return json(200, s.review(ctx.world.urls, repo, pull, review));
    },
  },
};
