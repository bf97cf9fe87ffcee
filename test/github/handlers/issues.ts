// Issues, labels and comments. Pull requests are issues here too (labels and comments on a pull
// request go through these endpoints), and a label change on one fires `pull_request.labeled`.
import * as s from "../serialize.js";
import type { Comment, Issue, Repository, TokenPermission } from "../state.js";
import { NotFound, Unprocessable } from "../world.js";
import {
  bodyOf,
  type Ctx,
  json,
  listPage,
  numberParam,
  type OperationTable,
  type Permission,
  paginate,
  queryString,
  repoOf,
  tokenOf,
} from "./context.js";

function issueOf(ctx: Ctx): { repo: Repository; issue: Issue } {
  const repo = repoOf(ctx);
  return { repo, issue: ctx.world.issue(repo, numberParam(ctx, "issue_number")) };
}

/** `issues/add-labels` and `set-labels` take `{labels: [...]}`, `[...]` or `{labels: [{name}]}`. */
function labelNames(body: unknown): string[] {
  const list = Array.isArray(body)
    ? body
    : typeof body === "object" &&
        body !== null &&
        Array.isArray((body as { labels?: unknown }).labels)
      ? (body as { labels: unknown[] }).labels
      : typeof body === "string"
        ? [body]
        : [];
  return list.map((item) =>
    typeof item === "object" && item !== null
      ? String((item as { name?: unknown }).name)
      : String(item),
  );
}

function issueLabels(ctx: Ctx, repo: Repository, issue: Issue) {
  return issue.labels.flatMap((name) => {
    const found = repo.labels.get(name.toLowerCase());
    return found ? [s.label(ctx.world.urls, repo, found)] : [];
  });
}

/** The comment named by `comment_id`, and the issue or pull request it is on. */
function commentOf(ctx: Ctx): { repo: Repository; issue: Issue; comment: Comment } {
  const repo = repoOf(ctx);
  const id = numberParam(ctx, "comment_id");
  for (const issue of repo.issues.values()) {
    const comment = issue.comments.find((entry) => entry.id === id);
    if (comment) return { repo, issue, comment };
  }
  throw new NotFound("Not Found");
}

/** Issue endpoints need `issues`. */
const ISSUES_READ: ["issues", "read"] = ["issues", "read"];
const ISSUES_WRITE: ["issues", "write"] = ["issues", "write"];
/**
 * A repository's labels: GitHub takes `issues` or `pull_requests` (an App with only
 * `pull_requests: write` manages the labels it puts on pull requests).
 */
const REPO_LABELS_READ: Permission = [
  ["issues", "read"],
  ["pull_requests", "read"],
];
const REPO_LABELS_WRITE: Permission = [
  ["issues", "write"],
  ["pull_requests", "write"],
];
/**
 * Labels and comments on a number: `issues` on a plain issue (`pull_requests` is 403 there). On a
 * pull request's number GitHub documents `issues` or `pull_requests`, and reads take either; but
 * writes answer 403 without `pull_requests: write`, though the header names both
 * (`x-accepted-github-permissions: issues=write; pull_requests=write`), as tokens with only
 * `issues: write` found labelling pull requests of their own repository (mavlink/qgroundcontrol#14252,
 * resend/react-email#3512, Arize-ai/phoenix#13279). The simulator holds the stricter rule, so an
 * App asking less than it needs fails here, not on GitHub.
 */
function onIssueOrPull(level: TokenPermission): (ctx: Ctx) => Permission {
  return (ctx) => {
    const { issue } = ctx.params.comment_id !== undefined ? commentOf(ctx) : issueOf(ctx);
    if (!issue.pull) return ["issues", level];
    if (level === "write") return ["pull_requests", "write"];
    return [
      ["issues", level],
      ["pull_requests", level],
    ];
  };
}

export const issueOperations: OperationTable = {
  "issues/create": {
    auth: "token",
    permission: ISSUES_WRITE,
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const body = bodyOf(ctx);
      const token = tokenOf(ctx);
      const { issue } = ctx.world.createIssue(repo, {
        title: String(body.title),
        body: typeof body.body === "string" ? body.body : null,
        user: token.actor,
        labels: labelNames(body),
      });
      return json(201, ctx.world.issueJson(repo, issue));
    },
  },

  "issues/get": {
    auth: "token",
    permission: ISSUES_READ,
    handle: (ctx) => {
      const { repo, issue } = issueOf(ctx);
      return json(200, ctx.world.issueJson(repo, issue));
    },
  },

  "issues/list-for-repo": {
    auth: "token",
    permission: ISSUES_READ,
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const state = queryString(ctx, "state") ?? "open";
      const labels = (queryString(ctx, "labels") ?? "").split(",").filter(Boolean);
      const issues = [...repo.issues.values()]
        .filter((item) => state === "all" || item.state === state)
        .filter((item) =>
          labels.every((name) =>
            item.labels.some((own) => own.toLowerCase() === name.toLowerCase()),
          ),
        )
        .sort((a, b) => b.number - a.number);
      return listPage(ctx, issues, (item) => ctx.world.issueJson(repo, item));
    },
  },

  "issues/update": {
    auth: "token",
    permission: ISSUES_WRITE,
    handle: (ctx) => {
      const { repo, issue } = issueOf(ctx);
      const body = bodyOf(ctx);
      const token = tokenOf(ctx);
      ctx.world.updateIssue(repo, issue, token.actor, {
        ...(typeof body.title === "string" ? { title: body.title } : {}),
        ...(body.body !== undefined ? { body: (body.body as string | null) ?? null } : {}),
        ...(body.state === "open" || body.state === "closed" ? { state: body.state } : {}),
        ...(typeof body.state_reason === "string"
          ? { stateReason: body.state_reason as "completed" | "not_planned" | "reopened" }
          : {}),
        ...(Array.isArray(body.labels) ? { labels: labelNames(body) } : {}),
      });
      return json(200, ctx.world.issueJson(repo, issue));
    },
  },

  "issues/list-comments": {
    auth: "token",
    permission: onIssueOrPull("read"),
    handle: (ctx) => {
      const { repo, issue } = issueOf(ctx);
      return listPage(ctx, issue.comments, (entry) =>
        s.comment(ctx.world.urls, repo, issue, entry),
      );
    },
  },

  "issues/create-comment": {
    auth: "token",
    permission: onIssueOrPull("write"),
    handle: (ctx) => {
      const { repo, issue } = issueOf(ctx);
      const token = tokenOf(ctx);
      const body = bodyOf(ctx);
      const { comment } = ctx.world.addComment(repo, issue, {
        body: String(body.body),
        user: token.actor,
        ...(token.installationId !== undefined ? { app: token.app } : {}),
      });
      return json(201, s.comment(ctx.world.urls, repo, issue, comment));
    },
  },

  "issues/update-comment": {
    auth: "token",
    permission: onIssueOrPull("write"),
    handle: (ctx) => {
      const { repo, issue, comment } = commentOf(ctx);
      const body = bodyOf(ctx);
      ctx.world.editComment(repo, issue, comment, String(body.body), tokenOf(ctx).actor);
      return json(200, s.comment(ctx.world.urls, repo, issue, comment));
    },
  },

  "issues/list-labels-on-issue": {
    auth: "token",
    permission: onIssueOrPull("read"),
    handle: (ctx) => {
      const { repo, issue } = issueOf(ctx);
      return json(200, issueLabels(ctx, repo, issue));
    },
  },

  "issues/add-labels": {
    auth: "token",
    permission: onIssueOrPull("write"),
    handle: (ctx) => {
      const { repo, issue } = issueOf(ctx);
      const names = labelNames(ctx.body);
      if (names.length === 0) {
        throw new Unprocessable("Invalid request.\n\nNo labels given.");
      }
      void ctx.world.addLabels(repo, issue, names, tokenOf(ctx).actor);
      return json(200, issueLabels(ctx, repo, issue));
    },
  },

  "issues/set-labels": {
    auth: "token",
    permission: onIssueOrPull("write"),
    handle: (ctx) => {
      const { repo, issue } = issueOf(ctx);
      ctx.world.setLabels(repo, issue, labelNames(ctx.body), tokenOf(ctx).actor);
      return json(200, issueLabels(ctx, repo, issue));
    },
  },

  "issues/remove-label": {
    auth: "token",
    permission: onIssueOrPull("write"),
    handle: (ctx) => {
      const { repo, issue } = issueOf(ctx);
      void ctx.world.removeLabel(repo, issue, ctx.params.name ?? "", tokenOf(ctx).actor);
      return json(200, issueLabels(ctx, repo, issue));
    },
  },

  "issues/list-labels-for-repo": {
    auth: "token",
    permission: REPO_LABELS_READ,
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const labels = [...repo.labels.values()].map((item) => s.label(ctx.world.urls, repo, item));
      const { page, headers } = paginate(ctx, labels);
      return json(200, page, headers);
    },
  },

  "issues/get-label": {
    auth: "token",
    permission: REPO_LABELS_READ,
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const found = repo.labels.get((ctx.params.name ?? "").toLowerCase());
      if (!found) throw new NotFound("Not Found");
      return json(200, s.label(ctx.world.urls, repo, found));
    },
  },

  "issues/create-label": {
    auth: "token",
    permission: REPO_LABELS_WRITE,
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const body = bodyOf(ctx);
      const name = String(body.name);
      if (repo.labels.has(name.toLowerCase())) {
        throw new Unprocessable("Validation Failed", [
          { resource: "Label", code: "already_exists", field: "name" },
        ]);
      }
      const color = typeof body.color === "string" ? body.color.replace(/^#/, "") : "ededed";
      if (!/^[0-9a-fA-F]{6}$/.test(color)) {
        throw new Unprocessable("Validation Failed", [
          { resource: "Label", code: "invalid", field: "color" },
        ]);
      }
      const created = ctx.world.ensureLabel(repo, {
        name,
        color: color.toLowerCase(),
        description: typeof body.description === "string" ? body.description : null,
      });
      return json(201, s.label(ctx.world.urls, repo, created));
    },
  },

  "issues/update-label": {
    auth: "token",
    permission: REPO_LABELS_WRITE,
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const found = repo.labels.get((ctx.params.name ?? "").toLowerCase());
      if (!found) throw new NotFound("Not Found");
      const body = bodyOf(ctx);
      if (typeof body.color === "string") found.color = body.color.replace(/^#/, "").toLowerCase();
      if (body.description !== undefined)
        found.description = (body.description as string | null) ?? null;
      if (typeof body.new_name === "string" && body.new_name !== found.name) {
        const oldName = found.name;
        repo.labels.delete(oldName.toLowerCase());
        found.name = body.new_name;
        repo.labels.set(found.name.toLowerCase(), found);
        for (const issue of repo.issues.values()) {
          issue.labels = issue.labels.map((own) =>
            own.toLowerCase() === oldName.toLowerCase() ? found.name : own,
          );
        }
      }
      return json(200, s.label(ctx.world.urls, repo, found));
    },
  },
};
