// Pull requests like GitHub's: a real test merge commit in refs/pull/N/merge (recomputed when the
// head or the base moves, absent on a conflict), counts that agree with the file list, GitHub's
// caps on listings, retargeting with `pulls/update`, filters of `pulls/list`, and pull requests
// from forks.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { installationClient, tokenClient } from "./clients.js";
import { agentPull, forkPull, useSimulator } from "./use-simulator.js";

const repo = "merges";
const { sim } = useSimulator({
  seed: (sim) =>
    sim.createRepository({
      repo,
      files: { "a.txt": "one\ntwo\nthree\n", "b.txt": "b\n", ".github/agate.yml": "version: 1\n" },
    }),
});

const git = (repository: string, ...args: string[]) =>
  execFileSync("git", args, { cwd: sim.gitDir({ repo: repository }), encoding: "utf8" }).trim();

function payloadsOf(action: string) {
  return sim.deliveries
    .filter((d) => d.event === "pull_request" && d.action === action)
    .map((d) => d.payload as { pull_request: Record<string, unknown>; changes?: unknown });
}

/** A refused API call's status and body. */
const refused = (error: { status: number; response: { data: unknown } }) => ({
  status: error.status,
  data: error.response.data,
});

/** `pulls/get` as the App reads it. */
const pullsGet = async (number: number) =>
  (await installationClient(sim).rest.pulls.get({ owner: sim.owner, repo, pull_number: number }))
    .data;

const pull = (files: Record<string, string | null> = { "c.txt": "c\n" }) =>
  agentPull(sim, { repo, files });

describe("the test merge commit", () => {
  it("is a merge of the head into the base tip in refs/pull/N/merge, what pulls/get names", async () => {
    const { head, number, baseSha, mergeCommitSha } = await pull();
    expect(mergeCommitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(git(repo, "rev-parse", `refs/pull/${number}/merge`)).toBe(mergeCommitSha);
    expect(git(repo, "rev-parse", `refs/pull/${number}/head`)).toBe(head);
    expect(git(repo, "rev-list", "--parents", "-n", "1", mergeCommitSha ?? "")).toBe(
      `${mergeCommitSha} ${baseSha} ${head}`,
    );
    expect(git(repo, "log", "-1", "--format=%s|%cn|%an", mergeCommitSha ?? "")).toBe(
      `Merge ${head} into ${baseSha}|GitHub|codex[bot]`,
    );
    expect(git(repo, "ls-tree", "-r", "--name-only", mergeCommitSha ?? "").split("\n")).toEqual([
      ".github/agate.yml",
      "a.txt",
      "b.txt",
      "c.txt",
    ]);
    const data = await pullsGet(number);
    expect(data).toMatchObject({
      merge_commit_sha: mergeCommitSha,
      mergeable: true,
      mergeable_state: "clean",
    });
    // GitHub computes it after `opened` went out: the payload does not have it yet.
    expect(payloadsOf("opened")[0]?.pull_request).toMatchObject({
      merge_commit_sha: null,
      mergeable: null,
      mergeable_state: "unknown",
    });
  });

  it("moves with the head (synchronize carries the stale one) and with the base (no webhook)", async () => {
    const { number, mergeCommitSha: first } = await pull();
    const head = await sim.pushCommit({
      repo,
      branch: "agent/1",
      files: { "c.txt": "c2\n" },
      author: "codex[bot]",
    });
    const second = sim.pull({ repo, number });
    expect(second.mergeCommitSha).not.toBe(first);
    expect(git(repo, "rev-parse", `refs/pull/${number}/merge^2`)).toBe(head);
    expect(payloadsOf("synchronize")[0]?.pull_request).toMatchObject({
      merge_commit_sha: first,
      mergeable: null,
    });
    const deliveries = sim.deliveries.length;
    const base = await sim.pushCommit({ repo, branch: "main", files: { "d.txt": "d\n" } });
    expect(sim.deliveries.length).toBe(deliveries);
    const third = sim.pull({ repo, number });
    expect(third.mergeCommitSha).not.toBe(second.mergeCommitSha);
    expect(git(repo, "rev-parse", `refs/pull/${number}/merge^1`)).toBe(base);
    expect(third.mergeCommits.map((merge) => merge.sha)).toEqual([
      first,
      second.mergeCommitSha,
      third.mergeCommitSha,
    ]);
  });

  it("is absent on a conflict: mergeable false, no merge ref, merge_commit_sha null", async () => {
    const { number } = await pull({ "a.txt": "one\nTWO (head)\nthree\n" });
    await sim.pushCommit({ repo, branch: "main", files: { "a.txt": "one\nTWO (base)\nthree\n" } });
    expect(sim.pull({ repo, number })).toMatchObject({ mergeable: false, mergeCommitSha: null });
    expect(() =>
      git(repo, "rev-parse", "--verify", "--quiet", `refs/pull/${number}/merge`),
    ).toThrow();
    const data = await pullsGet(number);
    expect(data).toMatchObject({
      merge_commit_sha: null,
      mergeable: false,
      mergeable_state: "dirty",
    });
  });
});

describe("counts and caps", () => {
  it("changed_files, additions, deletions and commits agree with the file list", async () => {
    await sim.pushCommit({ repo, branch: "agent/1", files: { "c.txt": "1\n2\n" } });
    await sim.pushCommit({
      repo,
      branch: "agent/1",
      files: { "a.txt": "one\nthree\n", "b.txt": null },
    });
    const { number } = await sim.openPullRequest({ repo, head: "agent/1", title: "t", user: "x" });
    const octokit = installationClient(sim);
    const data = await pullsGet(number);
    const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner: sim.owner,
      repo,
      pull_number: number,
    });
    expect(data.changed_files).toBe(files.length);
    expect(data.additions).toBe(files.reduce((sum, file) => sum + file.additions, 0));
    expect(data.deletions).toBe(files.reduce((sum, file) => sum + file.deletions, 0));
    expect(data).toMatchObject({ commits: 2, changed_files: 3, additions: 2, deletions: 2 });
  });

  it("a 3,001-file pull request: changed_files 3001, list-files stops at 3000, compare at 300", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 3001; i++) files[`pad/f${String(i).padStart(4, "0")}.txt`] = `${i}\n`;
    // Seeding writes the objects in process (measure.ts prints how long it takes).
    const { number, head } = await pull(files);
    const octokit = installationClient(sim);
    const data = await pullsGet(number);
    expect(data.changed_files).toBe(3001);
    const listed = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner: sim.owner,
      repo,
      pull_number: number,
      per_page: 100,
    });
    expect(listed).toHaveLength(3000);
    const beyond = await octokit.rest.pulls.listFiles({
      owner: sim.owner,
      repo,
      pull_number: number,
      per_page: 100,
      page: 31,
    });
    expect(beyond.data).toEqual([]);
    const compare = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: sim.owner,
      repo,
      basehead: `main...${head}`,
    });
    expect(compare.data.files).toHaveLength(300);
  });

  it("compare paginates commits and shows files on the first page only", async () => {
    for (let i = 0; i < 3; i++) {
      await sim.pushCommit({ repo, branch: "agent/1", files: { [`n${i}.txt`]: `${i}\n` } });
    }
    const octokit = installationClient(sim);
    const first = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: sim.owner,
      repo,
      basehead: "main...agent/1",
      per_page: 2,
      page: 1,
    });
    expect(first.data.commits).toHaveLength(2);
    expect(first.data.files).toHaveLength(3);
    expect(first.data.total_commits).toBe(3);
    const second = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: sim.owner,
      repo,
      basehead: "main...agent/1",
      per_page: 2,
      page: 2,
    });
    expect(second.data.commits).toHaveLength(1);
    expect(second.data.files ?? []).toEqual([]);
  });
});

describe("pulls/update and pulls/list", () => {
  it("retargets the base: edited names the old ref and SHA, and the merge follows", async () => {
    const { number } = await pull();
    const release = await sim.pushCommit({
      repo,
      branch: "release",
      files: { "r.txt": "r\n" },
    });
    const oldBase = sim.branchSha({ repo, branch: "main" });
    const writer = tokenClient(sim, sim.createToken({ permissions: { pull_requests: "write" } }));
    const { data } = await writer.rest.pulls.update({
      owner: sim.owner,
      repo,
      pull_number: number,
      base: "release",
      title: "Task (retargeted)",
    });
    expect(data.base).toMatchObject({ ref: "release", sha: release });
    expect(data.title).toBe("Task (retargeted)");
    await sim.flushWebhooks();
    const [edited] = payloadsOf("edited");
    expect(edited?.changes).toEqual({
      base: { ref: { from: "main" }, sha: { from: oldBase } },
      title: { from: "Task" },
    });
    expect(git(repo, "rev-parse", `refs/pull/${number}/merge^1`)).toBe(release);

    const missing = await writer.rest.pulls
      .update({ owner: sim.owner, repo, pull_number: number, base: "no-such-branch" })
      .catch((error: { status: number }) => error.status);
    expect(missing).toBe(422);
    const readOnly = await tokenClient(
      sim,
      sim.createToken({ permissions: { pull_requests: "read" } }),
    )
      .rest.pulls.update({ owner: sim.owner, repo, pull_number: number, title: "x" })
      .catch((error: { status: number }) => error.status);
    expect(readOnly).toBe(403);

    await sim.retargetPullRequest({ repo, number, base: "main" });
    expect(payloadsOf("edited")[1]?.changes).toEqual({
      base: { ref: { from: "release" }, sha: { from: release } },
    });

    // A closed pull request keeps its base, also when the same call reopens or closes it.
    const closedBase = {
      errors: [
        { field: "base", message: "Cannot change the base branch of a closed pull request." },
      ],
    };
    const closing = await writer.rest.pulls
      .update({ owner: sim.owner, repo, pull_number: number, state: "closed", base: "release" })
      .catch(refused);
    expect(closing).toMatchObject({ status: 422, data: closedBase });
    await sim.setPullRequestState({ repo, number, state: "closed" });
    const reopening = await writer.rest.pulls
      .update({ owner: sim.owner, repo, pull_number: number, state: "open", base: "release" })
      .catch(refused);
    expect(reopening).toMatchObject({ status: 422, data: closedBase });
    expect(sim.pull({ repo, number })).toMatchObject({ state: "closed", baseRef: "main" });
  });

  it("a workflow run lists its pull request with the base it had when the run was made, after a retarget too", async () => {
    const { head, number } = await pull();
    const evil = await sim.pushCommit({ repo, branch: "evil", files: { "e.txt": "e\n" } });
    await sim.retargetPullRequest({ repo, number, base: "evil" });
    const made = sim.addWorkflowRun({ repo, headSha: head, path: ".github/workflows/ci.yml" });
    await sim.retargetPullRequest({ repo, number, base: "main" });
    const later = sim.addWorkflowRun({ repo, headSha: head, path: ".github/workflows/ci.yml" });
    const { data } = await installationClient(sim).rest.actions.listWorkflowRunsForRepo({
      owner: sim.owner,
      repo,
      head_sha: head,
    });
    const baseOf = (id: number) =>
      data.workflow_runs
        .find((run) => run.id === id)
        ?.pull_requests?.map((p) => [p.number, p.base.ref, p.base.sha]);
    expect(baseOf(made.id)).toEqual([[number, "evil", evil]]);
    expect(baseOf(later.id)).toEqual([[number, "main", sim.branchSha({ repo, branch: "main" })]]);
    // Closed, it is listed by neither.
    await sim.setPullRequestState({ repo, number, state: "closed" });
    const { data: closed } = await installationClient(sim).rest.actions.getWorkflowRun({
      owner: sim.owner,
      repo,
      run_id: made.id,
    });
    expect(closed.pull_requests).toEqual([]);
  });

  it("keeps one open pull request per head and base: a second is 422, also by reopening or retargeting", async () => {
    const { number } = await pull();
    const exists = {
      errors: [{ message: `A pull request already exists for ${sim.owner}:agent/1.` }],
    };
    await expect(
      sim.openPullRequest({ repo, head: "agent/1", title: "Again", user: "codex[bot]" }),
    ).rejects.toMatchObject(exists);
    // The same head into another base is another pull request.
    await sim.pushCommit({ repo, branch: "release", files: { "r.txt": "r\n" } });
    const other = await sim.openPullRequest({
      repo,
      head: "agent/1",
      base: "release",
      title: "Into release",
      user: "codex[bot]",
    });
    await sim.setPullRequestState({ repo, number, state: "closed" });
    const third = await sim.openPullRequest({ repo, head: "agent/1", title: "3", user: "x" });
    expect(third.number).toBe(other.number + 1);

    const writer = tokenClient(sim, sim.createToken({ permissions: { pull_requests: "write" } }));
    const reopened = await writer.rest.pulls
      .update({ owner: sim.owner, repo, pull_number: number, state: "open" })
      .catch(refused);
    expect(reopened).toMatchObject({ status: 422, data: exists });
    const retargeted = await writer.rest.pulls
      .update({ owner: sim.owner, repo, pull_number: other.number, base: "main" })
      .catch(refused);
    expect(retargeted).toMatchObject({ status: 422, data: exists });
    expect(sim.pull({ repo, number })).toMatchObject({ state: "closed" });
    expect(sim.pull({ repo, number: other.number })).toMatchObject({ baseRef: "release" });
  });

  it("filters by state, head (owner:branch) and base", async () => {
    const { number } = await pull();
    await sim.pushCommit({ repo, branch: "agent/2", files: { "z.txt": "z\n" } });
    const second = await sim.openPullRequest({ repo, head: "agent/2", title: "2", user: "x" });
    await sim.setPullRequestState({ repo, number: second.number, state: "closed" });
    const octokit = installationClient(sim);
    const list = async (query: {
      state?: "open" | "closed" | "all";
      head?: string;
      base?: string;
    }) =>
      (await octokit.rest.pulls.list({ owner: sim.owner, repo, ...query })).data.map(
        (item) => item.number,
      );
    expect(await list({})).toEqual([number]);
    expect(await list({ state: "all" })).toEqual([second.number, number]);
    expect(await list({ state: "closed" })).toEqual([second.number]);
    expect(await list({ head: `${sim.owner}:agent/1` })).toEqual([number]);
    expect(await list({ head: "someone:agent/1" })).toEqual([]);
    expect(await list({ base: "main", state: "all" })).toEqual([second.number, number]);
    expect(await list({ base: "release" })).toEqual([]);
  });
});

describe("pull requests from forks", () => {
  it("head.repo is the fork; the base repository gets refs/pull/N/head and /merge", async () => {
    const { fork, head, number, mergeCommitSha } = await forkPull(sim, {
      repo,
      owner: "contributor",
      files: { "c.txt": "from a fork\n" },
    });
    expect(fork).toMatchObject({ owner: "contributor", repo });
    expect(git(repo, "rev-parse", `refs/pull/${number}/head`)).toBe(head);
    expect(git(repo, "rev-parse", `refs/pull/${number}/merge^2`)).toBe(head);
    expect(sim.branchSha({ repo, branch: "fix" })).toBeUndefined();

    const octokit = installationClient(sim);
    const data = await pullsGet(number);
    expect(data.head).toMatchObject({ label: "contributor:fix", ref: "fix", sha: head });
    expect(data.head.repo).toMatchObject({ full_name: `contributor/${repo}`, fork: true });
    expect(data.base.repo).toMatchObject({ full_name: `${sim.owner}/${repo}`, fork: false });
    expect(data.merge_commit_sha).toBe(mergeCommitSha);
    const listed = await octokit.rest.pulls.list({
      owner: sim.owner,
      repo,
      head: "contributor:fix",
    });
    expect(listed.data.map((item) => item.number)).toEqual([number]);
    const files = await octokit.rest.pulls.listFiles({
      owner: sim.owner,
      repo,
      pull_number: number,
    });
    expect(files.data.map((file) => file.filename)).toEqual(["c.txt"]);

    const forkRepo = await tokenClient(sim, sim.createToken()).rest.repos.get({
      owner: "contributor",
      repo,
    });
    expect(forkRepo.data).toMatchObject({
      fork: true,
      parent: { full_name: `${sim.owner}/${repo}` },
    });

    // A push to the fork's branch is a synchronize of the base repository's pull request.
    const next = await sim.pushCommit({
      owner: "contributor",
      repo,
      branch: "fix",
      files: { "c.txt": "from a fork, again\n" },
      author: "contributor",
    });
    const sync = payloadsOf("synchronize").at(-1) as unknown as {
      after: string;
      repository: { full_name: string };
      installation: { id: number };
    };
    expect(sync).toMatchObject({
      after: next,
      repository: { full_name: `${sim.owner}/${repo}` },
      installation: { id: sim.installationId },
    });
    expect(git(repo, "rev-parse", `refs/pull/${number}/head`)).toBe(next);

    // Check runs and workflow runs on a fork's head list no pull requests, as on GitHub.
    const check = await sim.createCheckRun({ repo, name: "ci", headSha: next });
    const { data: run } = await octokit.rest.checks.get({
      owner: sim.owner,
      repo,
      check_run_id: check,
    });
    expect(run.pull_requests).toEqual([]);
  });
});

describe("labels in pulls/list", () => {
  it("lists a label without a description (null, as GitHub sends it)", async () => {
    const { number } = await pull();
    await sim.addLabels({ repo, number, labels: ["agent"] });
    const { data } = await installationClient(sim).rest.pulls.list({ owner: sim.owner, repo });
    expect(data[0]?.labels).toMatchObject([{ name: "agent", description: null }]);
  });
});
