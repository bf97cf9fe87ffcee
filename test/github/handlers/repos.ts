// Repositories and their git data, read from (and written to) the real bare repository.
import type { GitTreeEntry } from "../git.js";
import * as s from "../serialize.js";
import { fullName, type Ruleset } from "../state.js";
import { NotFound, Unprocessable } from "../world.js";
import {
  bodyOf,
  type Ctx,
  HttpError,
  json,
  listPage,
  type OperationTable,
  paginate,
  queryString,
  repoOf,
} from "./context.js";

/** GitHub serves file content inline up to 1 MB; above that `content` is empty. */
const INLINE_CONTENT_LIMIT = 1024 * 1024;
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

function resolveRef(ctx: Ctx, ref: string | undefined): string {
  const repo = repoOf(ctx);
  const name = ref ?? repo.defaultBranch;
  const sha =
    repo.git.resolveCommit(`refs/heads/${name}`) ??
    repo.git.resolveCommit(`refs/tags/${name}`) ??
    (/^[0-9a-f]{7,40}$/.test(name) ? repo.git.resolveCommit(name) : undefined) ??
    (name.startsWith("refs/") ? repo.git.resolveCommit(name) : undefined);
  if (!sha) throw new NotFound(`No commit found for the ref ${name}`);
  return sha;
}

function accountFor(ctx: Ctx) {
  return (email: string) => ctx.world.accountByEmail(email);
}

function wantsRaw(ctx: Ctx): boolean {
  return /application\/vnd\.github(\.v3)?\.raw/.test(String(ctx.headers.accept ?? ""));
}

function wants(ctx: Ctx, format: "diff" | "patch"): boolean {
  return new RegExp(`application/vnd\\.github(\\.v3)?\\.${format}`).test(
    String(ctx.headers.accept ?? ""),
  );
}

function refJson(ctx: Ctx, ref: string, sha: string) {
  const repo = repoOf(ctx);
  const api = `${ctx.world.urls.api}/repos/${fullName(repo)}/git`;
  return {
    ref,
    node_id: Buffer.from(`03:Ref${repo.id}:${ref}`).toString("base64"),
    url: `${api}/${ref}`,
    object: { type: "commit", sha, url: `${api}/commits/${sha}` },
  };
}

/** Whether a ruleset's conditions take in `branch`. */
function targets(ruleset: Ruleset, branch: string, defaultBranch: string): boolean {
  return ruleset.branches.some((name) =>
    name === "~DEFAULT_BRANCH" ? branch === defaultBranch : name === branch,
  );
}

export const repoOperations: OperationTable = {
  "repos/get-branch-rules": {
    auth: "token",
    permission: ["metadata", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const branch = ctx.params.branch ?? "";
      const source = {
        ruleset_source_type: "Repository",
        ruleset_source: fullName(repo),
      };
      const rules = repo.rulesets
        .filter((ruleset) => targets(ruleset, branch, repo.defaultBranch))
        .flatMap((ruleset) => [
          ...(ruleset.requiredChecks
            ? [
                {
                  type: "required_status_checks",
                  parameters: {
                    required_status_checks: ruleset.requiredChecks,
                    strict_required_status_checks_policy: false,
                  },
                  ...source,
                  ruleset_id: ruleset.id,
                },
              ]
            : []),
          ...(ruleset.mergeQueue
            ? [{ type: "merge_queue", ...source, ruleset_id: ruleset.id }]
            : []),
        ]);
      const { page, headers } = paginate(ctx, rules);
      return json(200, page, headers);
    },
  },
  "repos/get-branch": {
    auth: "token",
    permission: ["metadata", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const branch = ctx.params.branch ?? "";
      const sha = repo.git.resolveCommit(`refs/heads/${branch}`);
      if (!sha) throw new HttpError(404, "Branch not found");
      const api = `${ctx.world.urls.api}/repos/${fullName(repo)}/branches/${branch}`;
      const checks = repo.protections.get(branch);
      return json(200, {
        name: branch,
        commit: s.commit(ctx.world.urls, repo, repo.git.readCommit(sha), accountFor(ctx)),
        _links: { self: api, html: `${ctx.world.urls.html}/${fullName(repo)}/tree/${branch}` },
        protected: checks !== undefined,
        protection: {
          enabled: checks !== undefined,
          required_status_checks: {
            enforcement_level: checks ? "everyone" : "off",
            contexts: (checks ?? []).map((check) => check.context),
            checks: (checks ?? []).map((check) => ({
              context: check.context,
              app_id: check.integration_id ?? null,
            })),
          },
        },
        protection_url: `${api}/protection`,
      });
    },
  },
  "repos/get": {
    auth: "token",
    permission: ["metadata", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      return json(200, s.fullRepository(ctx.world.urls, repo, ctx.world.pushedAtOf(repo)));
    },
  },

  "repos/list-branches": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const api = `${ctx.world.urls.api}/repos/${fullName(repo)}`;
      const branches = repo.git.refs("refs/heads/").map(({ ref, sha }) => ({
        name: ref.replace("refs/heads/", ""),
        commit: { sha, url: `${api}/commits/${sha}` },
        protected: false,
      }));
      const { page, headers } = paginate(ctx, branches);
      return json(200, page, headers);
    },
  },

  "repos/get-content": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const ref = queryString(ctx, "ref");
      const sha = resolveRef(ctx, ref);
      const path = (ctx.params.path ?? "").replace(/^\/+|\/+$/g, "");
      const entry = repo.git.entryAt(sha, path);
      if (!entry) throw new NotFound("Not Found");
      const refName = ref ?? repo.defaultBranch;
      if (entry.type === "tree") {
        const children = repo.git
          .listTree(entry.sha)
          .map((child) => ({ ...child, path: path ? `${path}/${child.path}` : child.path }));
        return json(
          200,
          children.map((child) => s.contentItem(ctx.world.urls, repo, child, refName)),
        );
      }
      if (entry.type === "commit") throw new NotFound("Not Found");
      const content = repo.git.readBlob(entry.sha);
      if (wantsRaw(ctx)) {
        return { status: 200, raw: content, contentType: "application/vnd.github.raw" };
      }
      if (content.length > INLINE_CONTENT_LIMIT) {
        const item = s.contentItem(ctx.world.urls, repo, entry, refName);
        return json(200, { ...item, content: "", encoding: "none" });
      }
      return json(200, s.contentItem(ctx.world.urls, repo, entry, refName, content));
    },
  },

  "repos/get-commit": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const sha = resolveRef(ctx, ctx.params.ref);
      const commit = repo.git.readCommit(sha);
      // GitHub: at most 3,000 files, paged 300 a page unless per_page (at most 100) says less,
      // with Link headers to the rest when there are more (the default page's too).
      const files = repo.git.diff(commit.parents[0] ?? EMPTY_TREE, sha).slice(0, 3_000);
      const { page, headers } = paginate(ctx, files, 300);
      return json(200, s.commit(ctx.world.urls, repo, commit, accountFor(ctx), page), headers);
    },
  },

  "repos/list-commits": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const head = resolveRef(ctx, queryString(ctx, "sha"));
      const shas = repo.git.revList(head, queryString(ctx, "path"));
      return listPage(ctx, shas, (sha) =>
        s.commit(ctx.world.urls, repo, repo.git.readCommit(sha), accountFor(ctx)),
      );
    },
  },

  "repos/compare-commits": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const basehead = ctx.params.basehead ?? "";
      const split = basehead.indexOf("...");
      if (split === -1) throw new NotFound("Not Found");
      const base = resolveRef(ctx, basehead.slice(0, split));
      const head = resolveRef(ctx, basehead.slice(split + 3));
      const mergeBase = repo.git.mergeBase(base, head);
      if (!mergeBase) {
        throw new NotFound(
          `No common ancestor between ${basehead.slice(0, split)} and ${basehead.slice(split + 3)}.`,
        );
      }
      const ahead = repo.git.commitsBetween(base, head);
      const behind = repo.git.commitsBetween(head, base);
      const status =
        ahead.length === 0 && behind.length === 0
          ? "identical"
          : behind.length === 0
            ? "ahead"
            : ahead.length === 0
              ? "behind"
              : "diverged";
      if (wants(ctx, "diff")) {
        return { status: 200, raw: repo.git.diffText(mergeBase, head), contentType: "text/plain" };
      }
      // GitHub: without pagination at most 250 commits; with `page`/`per_page` the commits are
      // paginated and "the list of changed files is only shown on the first page of results,
      // and it includes up to 300 changed files for the entire comparison".
      const all = repo.git.commitsBetween(mergeBase, head);
      const paginated =
        queryString(ctx, "page") !== undefined || queryString(ctx, "per_page") !== undefined;
      const { page, headers } = paginated
        ? paginate(ctx, all)
        : { page: all.slice(0, 250), headers: {} };
      const firstPage = !paginated || Number(queryString(ctx, "page") ?? 1) <= 1;
      const commits = page;
      const files = firstPage ? repo.git.diff(mergeBase, head).slice(0, 300) : [];
      const { urls } = ctx.world;
      const html = `${urls.html}/${fullName(repo)}/compare/${basehead}`;
      return json(
        200,
        {
          url: `${urls.api}/repos/${fullName(repo)}/compare/${basehead}`,
          html_url: html,
          permalink_url: `${urls.html}/${fullName(repo)}/compare/${base}...${head}`,
          diff_url: `${html}.diff`,
          patch_url: `${html}.patch`,
          base_commit: s.commit(urls, repo, repo.git.readCommit(base), accountFor(ctx)),
          merge_base_commit: s.commit(urls, repo, repo.git.readCommit(mergeBase), accountFor(ctx)),
          status,
          ahead_by: ahead.length,
          behind_by: behind.length,
          total_commits: ahead.length,
          commits: commits.map((sha) =>
            s.commit(urls, repo, repo.git.readCommit(sha), accountFor(ctx)),
          ),
          files: files.map((file) => s.diffEntry(urls, repo, file, head)),
        },
        headers,
      );
    },
  },

  "repos/get-collaborator-permission-level": {
    auth: "token",
    permission: ["metadata", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const login = ctx.params.username ?? "";
      const account = ctx.world.accounts.get(login.toLowerCase());
      if (!account) throw new NotFound("Not Found");
      const role = ctx.world.permissionOf(repo, login);
      // The legacy `permission` field folds maintain into write and triage into read.
      const permission = role === "maintain" ? "write" : role === "triage" ? "read" : role;
      return json(200, {
        permission,
        role_name: role,
        user: {
          ...s.user(ctx.world.urls, account),
          role_name: role,
          permissions: {
            admin: role === "admin",
            maintain: role === "admin" || role === "maintain",
            push: ["admin", "maintain", "write"].includes(role),
            triage: role !== "read" && role !== "none",
            pull: role !== "none",
          },
        },
      });
    },
  },

  "git/get-ref": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const ref = `refs/${ctx.params.ref ?? ""}`;
      const found = repo.git.refs(ref).find((entry) => entry.ref === ref);
      if (!found) throw new NotFound("Not Found");
      return json(200, refJson(ctx, found.ref, found.sha));
    },
  },

  "git/list-matching-refs": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const prefix = `refs/${ctx.params.ref ?? ""}`;
      const refs = repo.git.refs("refs/").filter((entry) => entry.ref.startsWith(prefix));
      return json(
        200,
        refs.map((entry) => refJson(ctx, entry.ref, entry.sha)),
      );
    },
  },

  "git/create-ref": {
    auth: "token",
    permission: ["contents", "write"],
    handle: async (ctx) => {
      const repo = repoOf(ctx);
      const body = bodyOf(ctx);
      const ref = String(body.ref ?? "");
      const sha = String(body.sha ?? "");
      if (!/^refs\/[^/]+\/.+/.test(ref))
        throw new Unprocessable(
          "Reference name must start with 'refs/' and have at least two slashes.",
        );
      if (!repo.git.resolveObject(sha, "commit")) throw new Unprocessable("Object does not exist");
      if (repo.git.resolveCommit(ref)) throw new Unprocessable("Reference already exists");
      if (ref.startsWith("refs/heads/")) {
        void ctx.world.moveBranch(
          repo,
          ref.slice("refs/heads/".length),
          sha,
          undefined,
          tokenActor(ctx),
        );
      } else {
        repo.git.updateRef(ref, sha, "");
      }
      return json(201, refJson(ctx, ref, sha));
    },
  },

  "git/update-ref": {
    auth: "token",
    permission: ["contents", "write"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const body = bodyOf(ctx);
      const ref = `refs/${ctx.params.ref ?? ""}`;
      const sha = String(body.sha ?? "");
      const current = repo.git.resolveCommit(ref);
      if (!current) throw new Unprocessable("Reference does not exist");
      if (!repo.git.resolveObject(sha, "commit")) throw new Unprocessable("Object does not exist");
      if (body.force !== true && !repo.git.isAncestor(current, sha)) {
        throw new Unprocessable("Update is not a fast forward");
      }
      if (ref.startsWith("refs/heads/")) {
        void ctx.world.moveBranch(
          repo,
          ref.slice("refs/heads/".length),
          sha,
          current,
          tokenActor(ctx),
        );
      } else {
        repo.git.updateRef(ref, sha, current);
      }
      return json(200, refJson(ctx, ref, sha));
    },
  },

  "git/get-commit": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const sha = repo.git.resolveObject(ctx.params.commit_sha ?? "", "commit");
      if (!sha) throw new NotFound("Not Found");
      return json(200, s.gitCommit(ctx.world.urls, repo, repo.git.readCommit(sha)));
    },
  },

  "git/create-commit": {
    auth: "token",
    permission: ["contents", "write"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const body = bodyOf(ctx);
      const tree = repo.git.resolveObject(String(body.tree ?? ""), "tree");
      if (!tree) throw new Unprocessable("Tree SHA does not exist");
      const parents = (Array.isArray(body.parents) ? body.parents : []).map((parent) => {
        const sha = repo.git.resolveObject(String(parent), "commit");
        if (!sha) throw new Unprocessable("Parent SHA does not exist or is not a commit object");
        return sha;
      });
      const actor = tokenActor(ctx);
      const identity = (value: unknown) => {
        const given = (value ?? {}) as { name?: string; email?: string; date?: string };
        return {
          name: given.name ?? actor.login,
          email: given.email ?? actor.email,
          ...(given.date ? { time: Math.floor(Date.parse(given.date) / 1000) } : {}),
        };
      };
      const sha = repo.git.writeCommit({
        tree,
        parents,
        message: String(body.message ?? ""),
        author: identity(body.author),
        committer: identity(body.committer ?? body.author),
      });
      return json(201, s.gitCommit(ctx.world.urls, repo, repo.git.readCommit(sha)));
    },
  },

  "git/get-tree": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const given = ctx.params.tree_sha ?? "";
      const tree =
        repo.git.resolveObject(given, "tree") ??
        (() => {
          const commit =
            repo.git.resolveObject(given, "commit") ??
            repo.git.resolveCommit(`refs/heads/${given}`);
          return commit ? repo.git.readCommit(commit).tree : undefined;
        })();
      if (!tree) throw new NotFound("Not Found");
      const recursive = queryString(ctx, "recursive");
      const entries = repo.git.listTree(
        tree,
        recursive !== undefined && recursive !== "0" && recursive !== "false",
      );
      return json(200, {
        sha: tree,
        url: `${ctx.world.urls.api}/repos/${fullName(repo)}/git/trees/${tree}`,
        tree: entries.map((entry: GitTreeEntry) => s.treeEntry(ctx.world.urls, repo, entry)),
        truncated: false,
      });
    },
  },

  "git/create-tree": {
    auth: "token",
    permission: ["contents", "write"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const body = bodyOf(ctx);
      const base =
        body.base_tree === undefined
          ? undefined
          : repo.git.resolveObject(String(body.base_tree), "tree");
      if (body.base_tree !== undefined && !base)
        throw new Unprocessable("base_tree is not a valid tree oid");
      const items = Array.isArray(body.tree) ? (body.tree as Record<string, unknown>[]) : [];
      const entries = items.map((item) => {
        const path = String(item.path ?? "");
        const mode = String(item.mode ?? "100644");
        if (item.sha === null) return { path, mode, sha: null };
        if (typeof item.content === "string")
          return { path, mode, sha: repo.git.writeBlob(item.content) };
        const sha = repo.git.resolveObject(
          String(item.sha ?? ""),
          item.type === "tree" ? "tree" : "blob",
        );
        if (!sha) throw new Unprocessable(`tree.sha ${String(item.sha)} is not a valid blob`);
        return { path, mode, sha };
      });
      const tree = repo.git.writeTree(base, entries);
      return json(201, {
        sha: tree,
        url: `${ctx.world.urls.api}/repos/${fullName(repo)}/git/trees/${tree}`,
        tree: repo.git.listTree(tree).map((entry) => s.treeEntry(ctx.world.urls, repo, entry)),
        truncated: false,
      });
    },
  },

  "git/get-blob": {
    auth: "token",
    permission: ["contents", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const sha = repo.git.resolveObject(ctx.params.file_sha ?? "", "blob");
      if (!sha) throw new NotFound("Not Found");
      const content = repo.git.readBlob(sha);
      if (wantsRaw(ctx))
        return { status: 200, raw: content, contentType: "application/vnd.github.raw" };
      return json(200, {
        sha,
        node_id: Buffer.from(`04:Blob${repo.id}:${sha}`).toString("base64"),
        size: content.length,
        url: `${ctx.world.urls.api}/repos/${fullName(repo)}/git/blobs/${sha}`,
        content: (content.toString("base64").match(/.{1,60}/g) ?? [""]).join("\n"),
        encoding: "base64",
      });
    },
  },

  "git/create-blob": {
    auth: "token",
    permission: ["contents", "write"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const body = bodyOf(ctx);
      const encoding = body.encoding ?? "utf-8";
      if (encoding !== "utf-8" && encoding !== "base64")
        throw new Unprocessable("encoding must be utf-8 or base64");
      const content = Buffer.from(
        String(body.content ?? ""),
        encoding === "base64" ? "base64" : "utf8",
      );
      const sha = repo.git.writeBlob(content);
      return json(201, {
        sha,
        url: `${ctx.world.urls.api}/repos/${fullName(repo)}/git/blobs/${sha}`,
      });
    },
  },
};

function tokenActor(ctx: Ctx) {
  if (ctx.credential.kind !== "token") throw new HttpError(403, "Requires a token");
  return ctx.credential.token.actor;
}
