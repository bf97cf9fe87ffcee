// Git data comes from a real bare repository: SHAs, trees, diffs and contents are git's own.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installationClient, tokenClient } from "./clients.js";
import { useSimulator } from "./use-simulator.js";

const repo = "widgets";
const { sim } = useSimulator({
  seed: (sim) =>
    sim.createRepository({
      repo,
      files: {
        ".github/agate.yml": "version: 1\n",
        "src/a.ts": "export const a = 1;\n",
        "src/b.ts": "export const b = 2;\n",
        "docs/old-name.md": "# Title\n\nSome text that stays the same for rename detection.\n",
      },
    }),
});

async function featurePull() {
  await sim.pushCommit({
    repo,
    branch: "feature",
    files: {
      "src/a.ts": "export const a = 10;\nexport const extra = true;\n",
      "src/new.ts": "new\n",
    },
    message: "Change a, add new",
    author: "codex[bot]",
  });
  const head = await sim.pushCommit({
    repo,
    branch: "feature",
    files: {
      "src/b.ts": null,
      "docs/old-name.md": null,
      "docs/new-name.md": "# Title\n\nSome text that stays the same for rename detection.\n",
    },
    message: "Remove b, rename doc",
    author: "codex[bot]",
    trailers: { "Agent-Session": "s-1" },
  });
  const pr = await sim.openPullRequest({
    repo,
    head: "feature",
    title: "Feature",
    user: "codex[bot]",
  });
  return { head, number: pr.number };
}

describe("pull request files and compare", () => {
  it("list the files git changed between the merge base and the head", async () => {
    const { head, number } = await featurePull();
    const octokit = installationClient(sim);
    const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner: sim.owner,
      repo,
      pull_number: number,
    });
    const byName = Object.fromEntries(files.map((file) => [file.filename, file]));
    expect(Object.keys(byName).sort()).toEqual([
      "docs/new-name.md",
      "src/a.ts",
      "src/b.ts",
      "src/new.ts",
    ]);
    expect(byName["src/a.ts"]).toMatchObject({ status: "modified", additions: 2, deletions: 1 });
    expect(byName["src/a.ts"]?.patch).toContain("+export const extra = true;");
    expect(byName["src/b.ts"]).toMatchObject({ status: "removed", additions: 0, deletions: 1 });
    expect(byName["src/new.ts"]).toMatchObject({ status: "added", additions: 1 });
    expect(byName["docs/new-name.md"]).toMatchObject({
      status: "renamed",
      previous_filename: "docs/old-name.md",
    });
    const blob = execFileSync("git", ["rev-parse", `${head}:src/new.ts`], {
      cwd: sim.gitDir({ repo }),
    });
    expect(byName["src/new.ts"]?.sha).toBe(blob.toString().trim());

    const compare = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: sim.owner,
      repo,
      basehead: `main...feature`,
    });
    expect(compare.data).toMatchObject({
      status: "ahead",
      ahead_by: 2,
      behind_by: 0,
      total_commits: 2,
    });
    expect(compare.data.files?.map((file) => file.filename).sort()).toEqual(
      Object.keys(byName).sort(),
    );
    expect(compare.data.commits.at(-1)?.sha).toBe(head);
  });

  it("report commits oldest first, with their trailers, and the PR counts from git", async () => {
    const { head, number } = await featurePull();
    const octokit = installationClient(sim);
    const commits = await octokit.rest.pulls.listCommits({
      owner: sim.owner,
      repo,
      pull_number: number,
    });
    expect(commits.data.map((commit) => commit.commit.message.split("\n")[0])).toEqual([
      "Change a, add new",
      "Remove b, rename doc",
    ]);
    expect(commits.data[1]?.commit.message).toContain("Agent-Session: s-1");
    expect(commits.data[1]?.sha).toBe(head);
    expect(commits.data[1]?.author?.login).toBe("codex[bot]");
    const pull = await octokit.rest.pulls.get({ owner: sim.owner, repo, pull_number: number });
    expect(pull.data).toMatchObject({ commits: 2, changed_files: 4, additions: 3, deletions: 2 });
    expect(pull.data.head.sha).toBe(head);
    expect(pull.data.base.sha).toBe(sim.branchSha({ repo, branch: "main" }));
  });

  it("compare reports a diverged base", async () => {
    await featurePull();
    await sim.pushCommit({ repo, branch: "main", files: { "CHANGELOG.md": "x\n" } });
    const octokit = installationClient(sim);
    const compare = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: sim.owner,
      repo,
      basehead: "main...feature",
    });
    expect(compare.data).toMatchObject({ status: "diverged", ahead_by: 2, behind_by: 1 });
    // The three-dot compare diffs from the merge base: main's new file is not in it.
    expect(compare.data.files?.map((file) => file.filename)).not.toContain("CHANGELOG.md");
  });
});

describe("contents, trees and blobs", () => {
  it("read a file at a ref: the base and the head see different content", async () => {
    await sim.pushCommit({
      repo,
      branch: "feature",
      files: { ".github/agate.yml": "version: 2\n" },
    });
    const octokit = installationClient(sim);
    const read = async (ref: string) => {
      const { data } = await octokit.rest.repos.getContent({
        owner: sim.owner,
        repo,
        path: ".github/agate.yml",
        ref,
      });
      if (Array.isArray(data) || data.type !== "file") throw new Error("expected a file");
      return Buffer.from(data.content, "base64").toString("utf8");
    };
    expect(await read("main")).toBe("version: 1\n");
    expect(await read("feature")).toBe("version: 2\n");
    const missing = await octokit.rest.repos
      .getContent({ owner: sim.owner, repo, path: "nope.txt", ref: "main" })
      .catch((error: { status: number }) => error.status);
    expect(missing).toBe(404);
  });

  it("serve a hand-written request with an unencoded path and the raw media type", async () => {
    const token = sim.createToken();
    const response = await fetch(
      `${sim.apiUrl}/repos/${sim.owner}/${repo}/contents/src/a.ts?ref=main`,
      {
        headers: { authorization: `token ${token}`, accept: "application/vnd.github.raw" },
      },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("export const a = 1;\n");
  });

  it("list a directory", async () => {
    const { data } = await installationClient(sim).rest.repos.getContent({
      owner: sim.owner,
      repo,
      path: "src",
    });
    expect(Array.isArray(data) && data.map((entry) => [entry.path, entry.type])).toEqual([
      ["src/a.ts", "file"],
      ["src/b.ts", "file"],
    ]);
  });

  it("report the tree SHA that `git rev-parse HEAD^{tree}` computes in a clone", async () => {
    const head = await sim.pushCommit({ repo, branch: "feature", files: { "x.txt": "x\n" } });
    const clone = mkdtempSync(join(tmpdir(), "agate-sim-clone-"));
    try {
      execFileSync("git", ["clone", "--quiet", "--branch", "feature", sim.gitDir({ repo }), clone]);
      const localTree = execFileSync("git", ["rev-parse", "HEAD^{tree}"], { cwd: clone })
        .toString()
        .trim();
      const octokit = installationClient(sim);
      const commit = await octokit.rest.git.getCommit({ owner: sim.owner, repo, commit_sha: head });
      expect(commit.data.tree.sha).toBe(localTree);
      const tree = await octokit.rest.git.getTree({
        owner: sim.owner,
        repo,
        tree_sha: localTree,
        recursive: "1",
      });
      const paths = tree.data.tree
        .filter((entry) => entry.type === "blob")
        .map((entry) => entry.path);
      expect(paths).toContain("src/a.ts");
      expect(paths).toContain("x.txt");
      const entry = tree.data.tree.find((item) => item.path === "x.txt");
      const blob = await octokit.rest.git.getBlob({
        owner: sim.owner,
        repo,
        file_sha: entry?.sha ?? "",
      });
      expect(Buffer.from(blob.data.content, "base64").toString()).toBe("x\n");
      const ref = await octokit.rest.git.getRef({ owner: sim.owner, repo, ref: "heads/feature" });
      expect(ref.data.object.sha).toBe(head);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it("writes git data through the API with a token that may write contents", async () => {
    const writer = tokenClient(
      sim,
      sim.createToken({ permissions: { contents: "write", metadata: "read" } }),
    );
    const base = sim.branchSha({ repo, branch: "main" }) ?? "";
    const baseTree = (await writer.rest.git.getCommit({ owner: sim.owner, repo, commit_sha: base }))
      .data.tree.sha;
    const tree = await writer.rest.git.createTree({
      owner: sim.owner,
      repo,
      base_tree: baseTree,
      tree: [{ path: "deep/new/file.txt", mode: "100644", type: "blob", content: "hi\n" }],
    });
    const commit = await writer.rest.git.createCommit({
      owner: sim.owner,
      repo,
      message: "API commit",
      tree: tree.data.sha,
      parents: [base],
    });
    await writer.rest.git.updateRef({
      owner: sim.owner,
      repo,
      ref: "heads/main",
      sha: commit.data.sha,
    });
    expect(sim.branchSha({ repo, branch: "main" })).toBe(commit.data.sha);
    const listed = execFileSync("git", ["ls-tree", "-r", "--name-only", "main"], {
      cwd: sim.gitDir({ repo }),
    });
    expect(listed.toString()).toContain("deep/new/file.txt");
    const notFastForward = await writer.rest.git
      .updateRef({ owner: sim.owner, repo, ref: "heads/main", sha: base })
      .catch((error: { status: number }) => error.status);
    expect(notFastForward).toBe(422);
  });
});
