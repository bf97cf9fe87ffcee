// The remaining stateful handlers agate reads: check listings, workflow runs and jobs for a check
// suite, collaborator permissions, team membership, issues, labels and comments.
import { describe, expect, it } from "vitest";
import { createAgateCheck, installationClient, tokenClient } from "./clients.js";
import { agentPull, useSimulator } from "./use-simulator.js";
import { DEFAULT_INSTALLATION_PERMISSIONS } from "./world.js";

const repo = "svc";
let head: string;
const { sim } = useSimulator({
  seed: async (sim) => {
    await sim.createRepository({ repo });
    ({ head } = await agentPull(sim, {
      repo,
      branch: "agent/x",
      files: { "x.ts": "x\n" },
      title: "X",
    }));
  },
});

describe("check runs and suites", () => {
  it("lists the latest run per app and name; a same-named run of another app stays apart", async () => {
    const octokit = installationClient(sim);
    const first = await createAgateCheck(octokit, sim, repo, head);
    const second = await createAgateCheck(octokit, sim, repo, head);
    const impostor = await sim.createCheckRun({
      repo,
      name: "agate",
      headSha: head,
      conclusion: "success",
    });
    const latest = await octokit.rest.checks.listForRef({
      owner: sim.owner,
      repo,
      ref: head,
      check_name: "agate",
    });
    expect(latest.data.check_runs.map((run) => run.id).sort()).toEqual(
      [second.data.id, impostor].sort(),
    );
    const all = await octokit.rest.checks.listForRef({
      owner: sim.owner,
      repo,
      ref: "agent/x",
      filter: "all",
    });
    expect(all.data.total_count).toBe(3);
    const mine = await octokit.rest.checks.listForRef({
      owner: sim.owner,
      repo,
      ref: head,
      app_id: sim.appId,
    });
    expect(mine.data.check_runs.map((run) => run.id)).toEqual([second.data.id]);
    expect(first.data.check_suite?.id).toBe(second.data.check_suite?.id);

    const suites = await octokit.rest.checks.listSuitesForRef({
      owner: sim.owner,
      repo,
      ref: head,
    });
    expect(suites.data.check_suites.map((suite) => suite.app?.slug).sort()).toEqual([
      sim.appSlug,
      "github-actions",
    ]);
  });

  it("rejects a completed run without a conclusion and a summary over 65,535 characters (400, by the spec) and an unknown commit (422)", async () => {
    const octokit = installationClient(sim);
    const noConclusion = await octokit.rest.checks
      .create({ owner: sim.owner, repo, name: "agate", head_sha: head, status: "completed" })
      .catch((error: { status: number }) => error.status);
    expect(noConclusion).toBe(400);
    const unknownSha = await octokit.rest.checks
      .create({ owner: sim.owner, repo, name: "agate", head_sha: "0".repeat(40) })
      .catch((error: { status: number }) => error.status);
    expect(unknownSha).toBe(422);
    const tooLong = await octokit.rest.checks
      .create({
        owner: sim.owner,
        repo,
        name: "agate",
        head_sha: head,
        output: { title: "t", summary: "x".repeat(65_536) },
      })
      .catch((error: { status: number }) => error.status);
    expect(tooLong).toBe(400);
    expect(sim.checkRuns({ repo })).toEqual([]);
  });
});

describe("workflow runs for a check suite", () => {
  it("finds the run and its jobs by check suite id, and serves the job log", async () => {
    const run = sim.addWorkflowRun({
      repo,
      headSha: head,
      path: ".github/workflows/agate.yml",
      name: "agate",
      conclusion: "success",
      jobs: [{ name: "gate", steps: [{ name: "npm test" }], log: "all tests passed\n" }],
    });
    const octokit = installationClient(sim);
    const runs = await octokit.rest.actions.listWorkflowRunsForRepo({
      owner: sim.owner,
      repo,
      check_suite_id: run.checkSuiteId,
    });
    expect(runs.data.total_count).toBe(1);
    expect(runs.data.workflow_runs[0]).toMatchObject({
      id: run.id,
      head_sha: head,
      path: ".github/workflows/agate.yml",
      conclusion: "success",
      check_suite_id: run.checkSuiteId,
      event: "pull_request",
    });
    const jobs = await octokit.rest.actions.listJobsForWorkflowRun({
      owner: sim.owner,
      repo,
      run_id: run.id,
    });
    expect(jobs.data.jobs[0]).toMatchObject({ name: "gate", conclusion: "success" });
    expect(jobs.data.jobs[0]?.steps?.[0]).toMatchObject({
      name: "npm test",
      number: 1,
      conclusion: "success",
    });
    const log = await octokit.rest.actions.downloadJobLogsForWorkflowRun({
      owner: sim.owner,
      repo,
      job_id: run.jobIds[0] ?? 0,
    });
    expect(String(log.data)).toBe("all tests passed\n");
    const none = await octokit.rest.actions.listWorkflowRunsForRepo({
      owner: sim.owner,
      repo,
      check_suite_id: 1,
    });
    expect(none.data.total_count).toBe(0);
  });
});

describe("people", () => {
  it("reports collaborator permission levels, folding maintain into write as GitHub does", async () => {
    sim.setPermission({ repo, user: "lead", permission: "maintain" });
    sim.setPermission({ repo, user: "guest", permission: "read" });
    sim.addUser("stranger");
    const octokit = installationClient(sim);
    const level = async (username: string) =>
      (
        await octokit.rest.repos.getCollaboratorPermissionLevel({
          owner: sim.owner,
          repo,
          username,
        })
      ).data;
    expect(await level("lead")).toMatchObject({ permission: "write", role_name: "maintain" });
    expect(await level("guest")).toMatchObject({ permission: "read", role_name: "read" });
    expect(await level("stranger")).toMatchObject({ permission: "none" });
    const missing = await level("nobody-at-all").catch((error: { status: number }) => error.status);
    expect(missing).toBe(404);
  });

  it("answers team membership", async () => {
    sim.addTeamMember({ team: "maintainers", user: "lead", role: "maintainer" });
    const octokit = installationClient(sim);
    const member = await octokit.rest.teams.getMembershipForUserInOrg({
      org: sim.owner,
      team_slug: "maintainers",
      username: "lead",
    });
    expect(member.data).toMatchObject({ role: "maintainer", state: "active" });
    const outsider = await octokit.rest.teams
      .getMembershipForUserInOrg({
        org: sim.owner,
        team_slug: "maintainers",
        username: "codex[bot]",
      })
      .catch((error: { status: number }) => error.status);
    expect(outsider).toBe(404);
  });
});

describe("issues, labels and comments", () => {
  it("creates labels with colours, rejects duplicates, and reads them back", async () => {
    const octokit = installationClient(sim);
    await octokit.rest.issues.createLabel({
      owner: sim.owner,
      repo,
      name: "agate:blocked",
      color: "b60205",
      description: "Parked",
    });
    const duplicate = await octokit.rest.issues
      .createLabel({ owner: sim.owner, repo, name: "AGATE:blocked", color: "000000" })
      .catch((error: { status: number }) => error.status);
    expect(duplicate).toBe(422);
    const label = await octokit.rest.issues.getLabel({
      owner: sim.owner,
      repo,
      name: "agate:blocked",
    });
    expect(label.data).toMatchObject({ color: "b60205", description: "Parked" });
  });

  it("creates an issue as the App's bot, comments, relabels and closes it", async () => {
    // An installation on another account that granted `issues: write` explicitly (the default
    // installation keeps app.yml's permissions, which ask for it too, for handoff entries).
    const owner = "issue-writers";
    const installationId = sim.installApp(owner, {
      ...DEFAULT_INSTALLATION_PERMISSIONS,
      issues: "write",
    });
    await sim.createRepository({ owner, repo });
    const octokit = installationClient(sim, installationId);
    const issue = await octokit.rest.issues.create({
      owner,
      repo,
      title: "Handoff: need credentials",
      body: "project: x",
      labels: ["agate:open"],
    });
    expect(issue.data.user?.login).toBe(`${sim.appSlug}[bot]`);
    const comment = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: issue.data.number,
      body: "Missing field: tried",
    });
    expect(comment.data.performed_via_github_app?.id).toBe(sim.appId);
    await octokit.rest.issues.setLabels({
      owner,
      repo,
      issue_number: issue.data.number,
      labels: ["agate:blocked"],
    });
    await octokit.rest.issues.update({
      owner,
      repo,
      issue_number: issue.data.number,
      state: "closed",
    });
    const read = await octokit.rest.issues.get({
      owner,
      repo,
      issue_number: issue.data.number,
    });
    expect(read.data).toMatchObject({ state: "closed", state_reason: "completed", comments: 1 });
    expect(
      read.data.labels.map((label) => (typeof label === "string" ? label : label.name)),
    ).toEqual(["agate:blocked"]);
    await sim.flushWebhooks();
    expect(
      sim.deliveries.slice(-5).map((delivery) => `${delivery.event}.${delivery.action}`),
    ).toEqual([
      "issues.labeled",
      "issue_comment.created",
      "issues.unlabeled",
      "issues.labeled",
      "issues.closed",
    ]);
  });

  it("takes issues for labels and comments on an issue; on a pull request's, either to read and pull_requests to write", async () => {
    const issue = await sim.createIssue({ repo, title: "A plain issue", user: "octocat" });
    const comment = await sim.addIssueComment({ repo, number: issue, body: "hi", user: "octocat" });
    const status = (call: Promise<{ status: number }>) =>
      call.then(
        (response) => response.status,
        (error: { status: number }) => error.status,
      );
    // One after another: each call sees the labels the one before it left.
    const statuses = async (octokit: ReturnType<typeof tokenClient>, number: number) => {
      const target = { owner: sim.owner, repo, issue_number: number };
      const { issues: api } = octokit.rest;
      return [
        await status(api.addLabels({ ...target, labels: ["x"] })),
        await status(api.setLabels({ ...target, labels: ["y"] })),
        await status(api.removeLabel({ ...target, name: "y" })),
        await status(api.listLabelsOnIssue(target)),
        await status(api.createComment({ ...target, body: "b" })),
        await status(api.listComments(target)),
      ];
    };
    const pulls = tokenClient(sim, sim.createToken({ permissions: { pull_requests: "write" } }));
    const issues = tokenClient(sim, sim.createToken({ permissions: { issues: "write" } }));
    expect(await statuses(pulls, 1)).toEqual([200, 200, 200, 200, 201, 200]);
    expect(await statuses(pulls, issue)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(
      await status(
        pulls.rest.issues.updateComment({ owner: sim.owner, repo, comment_id: comment, body: "x" }),
      ),
    ).toBe(403);
    expect(await statuses(issues, issue)).toEqual([200, 200, 200, 200, 201, 200]);
    // GitHub documents either for a pull request's number, yet answers a write 403 without
    // pull_requests: write (handlers/issues.ts names the reports); reads take either.
    expect(await statuses(issues, 1)).toEqual([403, 403, 403, 200, 403, 200]);
    expect(
      await status(
        issues.rest.issues.updateComment({
          owner: sim.owner,
          repo,
          comment_id: comment,
          body: "x",
        }),
      ),
    ).toBe(200);
    // A repository's labels take either.
    expect(
      await status(
        pulls.rest.issues.createLabel({ owner: sim.owner, repo, name: "z", color: "000000" }),
      ),
    ).toBe(201);
  });

  it("lets a workflow token write check runs as GitHub Actions, not as the App", async () => {
    const workflow = tokenClient(sim, sim.createToken());
    const run = await createAgateCheck(workflow, sim, repo, head);
    expect(run.data.app?.slug).toBe("github-actions");
    const readOnly = tokenClient(sim, sim.createToken({ permissions: { metadata: "read" } }));
    const denied = await readOnly.rest.checks
      .create({ owner: sim.owner, repo, name: "agate", head_sha: head })
      .catch((error: { status: number }) => error.status);
    expect(denied).toBe(403);
  });
});

describe("a commit's files", () => {
  it("pages them as GitHub does: 300 on the default page with a Link to the rest, per_page pages at most 100", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 650 }, (_, i) => [`many/${String(i).padStart(3, "0")}.txt`, `${i}\n`]),
    );
    const sha = await sim.pushCommit({ repo, branch: "main", files });
    const octokit = installationClient(sim);
    const first = await octokit.rest.repos.getCommit({ owner: sim.owner, repo, ref: sha });
    expect(first.data.files).toHaveLength(300);
    const link = first.headers.link ?? "";
    expect(link).toMatch(/[?&]page=2>; rel="next"/);
    expect(link).toMatch(/[?&]page=3>; rel="last"/);
    expect(link).not.toContain("per_page");
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1] ?? "";
    const second = await octokit.request(`GET ${next}`);
    expect(second.data.files).toHaveLength(300);
    const third = await octokit.rest.repos.getCommit({
      owner: sim.owner,
      repo,
      ref: sha,
      page: 3,
    });
    expect(third.data.files).toHaveLength(50);
    expect(third.headers.link ?? "").not.toContain('rel="next"');
    const small = await octokit.rest.repos.getCommit({
      owner: sim.owner,
      repo,
      ref: sha,
      per_page: 100,
      page: 7,
    });
    expect(small.data.files).toHaveLength(50);
    expect(small.headers.link).toMatch(/per_page=100&page=6>; rel="prev"/);
  });
});
