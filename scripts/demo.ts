/**
 * npm run demo — agate end to end on the embedded default: the App (Probot, the durable webhook
 * path, workers) on a SQLite file, the GitHub simulator, real git, and the built Action bundle.
 * No network, no credentials. It plays one agent pull request and prints the `agate` check at
 * each step; it exits 0 only when every step came out as expected.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { gateJobHandlers } from "../app/gate/job-handlers.js";
import { startAgate } from "../app/runtime/server.js";
import { startGitHubSimulator } from "../test/github/index.js";
import { EVIDENCE_WORKFLOW_TEXT } from "../test/support/evidence-workflow.js";
import { GIT_ENV } from "../test/support/git-repo.js";
import { recordingLog } from "../test/support/recording-log.js";
import { ACTION_CAN_ISOLATE, testConfig } from "../test/support/runner-users.js";
import { settle as settleApp } from "../test/support/settle.js";
import { simulatedCi } from "../test/support/simulated-ci.js";

// Its own file, never AGATE_DATABASE_URL: the demo starts by deleting it.
const DATABASE = resolve("agate-demo.db");
// The evaluator: a rule-based stand-in for a model, run as a `command` evaluator the App's
// operator allows (AGATE_EVALUATOR_COMMANDS), exactly as a CLI agent judge would be.
const JUDGE_SCRIPT = resolve(import.meta.dirname, "demo-judge.mjs");
const JUDGE = `node ${JUDGE_SCRIPT}`;
const REPO = "widgets";
const BRANCH = "codex/answer";
const SECRET = "demo-webhook-secret";
const failures: string[] = [];
const SMOKE = process.argv.includes("--smoke");
const temp = mkdtempSync(join(tmpdir(), "agate-demo-"));

for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DATABASE}${suffix}`, { force: true });
const sim = await startGitHubSimulator({ webhookSecret: SECRET });
const agate = await startAgate({
  // The simulator has no secondary rate limits to pace writes for.
  githubThrottle: false,
  env: {
    ...sim.probotEnv(),
    WEBHOOK_SECRET: SECRET,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    AGATE_DATABASE_URL: `file:${DATABASE}`,
    AGATE_EVALUATOR_COMMANDS: JUDGE,
    // The judge runs in the evaluator's sandbox, which sees /usr and only the paths listed here.
    AGATE_EVALUATOR_COMMAND_PATHS: JUDGE_SCRIPT,
  },
  log: recordingLog(),
  pollMs: 20,
  handlers: gateJobHandlers,
});
sim.setWebhookUrl(`${agate.url}/api/github/webhooks`);
const settle = () => settleApp(sim, agate);

function step(title: string) {
  console.log(`\n▶ ${title}`);
}
function expectThat(ok: boolean, what: string) {
  console.log(`  ${ok ? "✓" : "✗"} ${what}`);
  if (!ok) failures.push(what);
}
/** Prints the App's `agate` check on a commit as a maintainer sees it, and returns it. */
function showCheck(sha: string) {
  const check = sim
    .checkRuns({ repo: REPO })
    .filter((c) => c.name === "agate" && c.headSha === sha)
    .at(-1);
  const state = check?.status === "completed" ? check.conclusion : check?.status;
  console.log(
    `  agate check on ${sha.slice(0, 7)}: ${state ?? "none"} — ${check?.output?.title ?? ""}`,
  );
  const table = (check?.output?.summary ?? "")
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));
  for (const line of table.slice(0, 8)) console.log(`    ${line}`);
  return check;
}
const ci = (head: string, branch = BRANCH) =>
  simulatedCi({ sim, repo: REPO, branch, head, temp, settle });
const CLI = resolve(import.meta.dirname, "..", "dist", "cli", "index.js");
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();
/** The handoff file row of the check's summary, and its findings as next work items. */
function handoffOf(sha: string) {
  const lines = (showCheck(sha)?.output?.summary ?? "").split("\n");
  return {
    row: lines.find((line) => line.startsWith("| handoff file |")) ?? "",
    items: lines.filter((line) => line.startsWith("- [ ] Fix .agate/handoff.md: ")),
  };
}

try {
  console.log(`agate App at ${agate.url}, GitHub simulator at ${sim.apiUrl}, store ${DATABASE}`);
  if (!ACTION_CAN_ISOLATE) {
    console.log(
      "This machine gives the demo neither root nor passwordless sudo, so its CI cannot run the commands as a user of their own: the demo's config allows records made as agate's own user (evidence.isolation: shared-allowed). On a GitHub-hosted runner nothing needs to be set.",
    );
  }
  const config = testConfig(
    [
      "version: 1",
      "commands:",
      "  - name: unit tests",
      '    run: test "$(cat src/answer.txt)" = 42 || { echo "expected 42, got $(cat src/answer.txt)"; exit 1; }',
      "  - name: no TODOs",
      '    run: "! grep -rn TODO src"',
      "evaluator:",
      "  kind: command",
      `  run: ${JSON.stringify(JUDGE)}`,
      "  rubric: |",
      "    requires: README.md document the answer for users",
      "",
    ].join("\n"),
  );
  await sim.createRepository({
    repo: REPO,
    files: {
      ".github/agate.yml": config,
      ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT,
      "src/answer.txt": "0\n",
    },
  });
  // The README's step 4: a ruleset on main requires agate with this App as its source.
  sim.addRuleset({ repo: REPO, requiredChecks: [{ context: "agate", integration_id: sim.appId }] });

  step("An agent opens a pull request from codex/answer");
  let head = await sim.pushCommit({
    repo: REPO,
    branch: BRANCH,
    files: { "src/answer.txt": "41\n" },
    author: "codex[bot]",
    message: "Compute the answer",
  });
  const { number } = await sim.openPullRequest({
    repo: REPO,
    head: BRANCH,
    title: "Compute the answer",
    user: "codex[bot]",
  });
  await settle();
  expectThat(
    showCheck(head)?.status === "in_progress",
    "opened → waiting for a run of .github/workflows/agate.yml to upload its command record",
  );

  step(
    "CI runs the Action (contents: read only; a shallow checkout of GitHub's test merge commit); the answer is wrong",
  );
  const firstRun = await ci(head);
  expectThat(
    sim
      .artifacts({ repo: REPO, runId: firstRun.runId })
      .some((a) => a.name.startsWith("agate-command-record-attempt-")),
    "the record left the job as an artifact, not through a write token",
  );
  const rejected = showCheck(head);
  expectThat(rejected?.conclusion === "failure", "a failing command → rejected");
  expectThat(
    rejected?.output?.summary?.includes("expected 42, got 41") ?? false,
    "the summary carries the failing tail",
  );

  // `--smoke`, the test suite's run: the quickstart's plumbing end to end (the App, the durable
  // webhook path, the built Action in simulated CI, the database file). Every later step is an
  // end-to-end test's too; `.ci/run` plays the whole story with `npm run demo`.
  if (!SMOKE) {
    step("The agent pushes a fix");
    const first = head;
    head = await sim.pushCommit({
      repo: REPO,
      branch: BRANCH,
      files: { "src/answer.txt": "42\n" },
      author: "codex[bot]",
      message: "Fix the answer",
    });
    await settle();
    expectThat(
      showCheck(head)?.status === "in_progress",
      "the new head waits for its own evidence",
    );
    const records = await agate.store.listRecords({
      repository: `${sim.owner}/${REPO}`,
      pullNumber: number,
    });
    expectThat(
      records.filter((r) => r.head_sha === first).every((r) => r.stale?.superseded_by === head),
      `every record of ${first.slice(0, 7)} is now stale, superseded by ${head.slice(0, 7)}`,
    );

    step("CI runs again: the tests pass, but the task is half done");
    await ci(head);
    const halfDone = showCheck(head);
    expectThat(
      halfDone?.conclusion === "failure" && (halfDone.output?.title ?? "").includes("not complete"),
      "every command passed, so the evaluator was asked; it did not sign off → rejected",
    );
    for (const line of (halfDone?.output?.summary ?? "").split("\n")) {
      if (line.startsWith("- [ ] ")) console.log(`    next work item: ${line.slice(6)}`);
    }
    expectThat(
      halfDone?.output?.summary?.includes(
        "- [ ] `Change README.md: document the answer for users`",
      ) ?? false,
      "its missing item is the next work item in the summary",
    );

    step("The agent does the missing work");
    head = await sim.pushCommit({
      repo: REPO,
      branch: BRANCH,
      files: { "README.md": "# widgets\n\nThe answer is 42.\n" },
      author: "codex[bot]",
      message: "Document the answer",
    });
    await settle();
    await ci(head);
    expectThat(
      showCheck(head)?.conclusion === "success",
      "every command passed on this exact commit and the evaluator signed off → accepted",
    );
    const judged = await agate.store.listEvaluations({
      repository: `${sim.owner}/${REPO}`,
      pullNumber: number,
    });
    expectThat(
      judged.length === 2 && judged.every((e) => e.run.kind === "command"),
      "two evaluations stored, one per tree, each naming who judged",
    );

    step("The agent also edits the evidence workflow");
    head = await sim.pushCommit({
      repo: REPO,
      branch: BRANCH,
      files: {
        ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT.replace(
          "pull_request:",
          "pull_request: {}",
        ),
      },
      author: "codex[bot]",
      message: "Tidy the workflow",
    });
    await settle();
    await ci(head);
    const escalated = showCheck(head);
    expectThat(
      escalated?.conclusion === "action_required",
      "a workflow edit → escalated, label agate:escalated",
    );
    expectThat(
      escalated?.output?.summary?.includes(
        "the change modifies `.github/workflows/agate.yml`, which the evidence workflow is or uses",
      ) ?? false,
      "and the record from the edited workflow is not believed",
    );
    expectThat(
      sim.labelsOf({ repo: REPO, number }).includes("agate:escalated"),
      "the pull request carries agate:escalated",
    );

    step("A maintainer approves this exact commit");
    sim.setPermission({ repo: REPO, user: "lead", permission: "maintain" });
    await sim.submitReview({ repo: REPO, number, state: "APPROVED", user: "lead", commitId: head });
    await settle();
    const approved = showCheck(head);
    expectThat(
      approved?.status === "in_progress" &&
        (approved.output?.summary?.includes(`/agate accept ${head}`) ?? false),
      "approved, but the only record came from the edited workflow: still waiting, and the summary names the way out",
    );

    step("The maintainer accepts this exact commit: /agate accept <sha> <reason>");
    await sim.addIssueComment({
      repo: REPO,
      number,
      body: `/agate accept ${head} the workflow change is reviewed`,
      user: "lead",
    });
    await settle();
    const overridden = showCheck(head);
    expectThat(
      overridden?.conclusion === "success" &&
        (overridden.output?.title ?? "").includes("by lead's override"),
      "accepted by the maintainer's override, stored with who and why",
    );

    step("An outside contributor's pull request from a fork");
    const fork = await sim.forkRepository({ repo: REPO, owner: "outsider" });
    const forkHead = await sim.pushCommit({
      owner: fork.owner,
      repo: fork.repo,
      branch: "typo",
      files: { "src/answer.txt": "42\n", "README.md": "# widgets\n\nThe answer is 42.\n" },
      author: "outsider",
      message: "Answer and document it",
    });
    await sim.openPullRequest({
      repo: REPO,
      head: "typo",
      headOwner: "outsider",
      title: "Answer",
      user: "outsider",
    });
    await settle();
    await ci(forkHead, "typo");
    expectThat(
      showCheck(forkHead)?.conclusion === "success",
      "a fork's pull request gets evidence too (the job needs no write token) → accepted",
    );

    step("A long task: another agent pull request, labelled long-task");
    const LONG = "codex/long-task";
    let long = await sim.pushCommit({
      repo: REPO,
      branch: LONG,
      files: { "src/answer.txt": "42\n", "README.md": "# widgets\n\nThe answer is 42.\n" },
      author: "codex[bot]",
      message: "Answer and document it",
    });
    const second = await sim.openPullRequest({
      repo: REPO,
      head: LONG,
      title: "Answer, as a long task",
      user: "codex[bot]",
      labels: ["long-task"],
    });
    await settle();
    await ci(long, LONG);
    const noFile = handoffOf(long);
    expectThat(
      noFile.row.includes("❌ fail") &&
        noFile.row.includes("required by the label long-task") &&
        noFile.row.includes("is not at the head commit"),
      "no handoff file → held, naming the rule that requires one",
    );

    step("The agent writes a handoff file by hand, with a false file list");
    long = await sim.pushCommit({
      repo: REPO,
      branch: LONG,
      files: {
        ".agate/handoff.md": [
          "---",
          "task: answer the question",
          `branch: ${LONG}`,
          "status: ready",
          "changed_files: [src/answer.txt, src/cache.txt]",
          "last_command: null",
          "---",
          "",
        ].join("\n"),
      },
      author: "codex[bot]",
      message: "Handoff",
    });
    await settle();
    await ci(long, LONG);
    const falseList = handoffOf(long);
    for (const item of falseList.items) console.log(`    next work item: ${item.slice(6)}`);
    expectThat(
      falseList.row.includes("❌ fail") &&
        falseList.items.some((item) => item.includes("README.md")) &&
        falseList.items.some((item) => item.includes("src/cache.txt")),
      "a false file list → held, with each difference named (README.md not listed, src/cache.txt not changed)",
    );

    step("The agent ends its session with `agate run` and `agate handoff`");
    const clone = mkdtempSync(join(temp, "agent-"));
    git(clone, "clone", "--quiet", sim.gitDir({ repo: REPO }), ".");
    git(clone, "checkout", "--quiet", LONG);
    const run = promisify(execFile);
    await run(process.execPath, [CLI, "run"], { cwd: clone });
    await run(process.execPath, [CLI, "handoff", "--status", "ready"], { cwd: clone });
    long = await sim.pushCommit({
      repo: REPO,
      branch: LONG,
      files: { ".agate/handoff.md": readFileSync(join(clone, ".agate/handoff.md"), "utf8") },
      author: "codex[bot]",
      message: "Handoff from agate handoff",
    });
    await settle();
    await ci(long, LONG);
    const trueFile = handoffOf(long);
    expectThat(
      trueFile.row.includes("✅ pass") && trueFile.row.includes("true to the pull request"),
      "the file agate handoff wrote is true to the pull request → the requirement passes",
    );
    expectThat(
      showCheck(long)?.conclusion === "success" &&
        sim.labelsOf({ repo: REPO, number: second.number }).includes("agate:accepted"),
      "and with the commands and the evaluator, the long task is accepted",
    );
  }

  step("What the App kept");
  const all = await agate.store.listRecords({
    repository: `${sim.owner}/${REPO}`,
    pullNumber: number,
  });
  console.log(
    `  ${all.length} acceptance records (append-only), ${all.filter((r) => r.stale).length} of them stale`,
  );
  console.log(
    `  ${(await agate.store.listAudit({ kind: "gate.decision" })).length} decisions in the audit log, each with the facts it was made from`,
  );
  console.log(`  GitHub API calls: ${Object.values(sim.calls).reduce((a, b) => a + b, 0)} in all`);
} catch (error) {
  failures.push(`the demo crashed: ${(error as Error).stack ?? error}`);
} finally {
  await agate.close();
  await sim.close();
  rmSync(temp, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.log(
    `\n✗ demo: ${failures.length} step(s) did not come out as expected:\n  - ${failures.join("\n  - ")}`,
  );
  process.exit(1);
}
console.log(
  `\n✓ demo: every step${SMOKE ? " of the smoke run" : ""} came out as expected. The database is ${DATABASE}.`,
);
