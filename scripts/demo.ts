/**
 * npm run demo — agate end to end on the embedded default: the App (Probot, the durable webhook
 * path, workers) on a SQLite file, the GitHub simulator, real git, and the built Action bundle.
 * No network, no credentials, no system sandbox: the evaluator is the `llm` kind against a local
 * stand-in model (scripts/demo-model.ts) the demo starts. It plays agent pull requests and prints
 * the `agate` check at each step; it exits 0 only when every step came out as expected.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { startGitHubSimulator } from "../test/github/index.js";
import { EVIDENCE_WORKFLOW_TEXT } from "../test/support/evidence-workflow.js";
import { GIT_ENV } from "../test/support/git-repo.js";
import { recordingLog } from "../test/support/recording-log.js";
import { ACTION_CAN_ISOLATE, testConfig } from "../test/support/runner-users.js";
import { settle as settleApp } from "../test/support/settle.js";
import { simulatedCi } from "../test/support/simulated-ci.js";
import { startSimulatorApp } from "../test/support/simulator-env.js";
import { DEMO_MODEL_NAME, startDemoModel } from "./demo-model.js";

// Its own file, never AGATE_DATABASE_URL: the demo starts by deleting it.
const DATABASE = resolve("agate-demo.db");
const REPO = "widgets";
const BRANCH = "codex/answer";
const SECRET = "demo-webhook-secret";
const failures: string[] = [];
const SMOKE = process.argv.includes("--smoke");
const temp = mkdtempSync(join(tmpdir(), "agate-demo-"));

for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DATABASE}${suffix}`, { force: true });
const sim = await startGitHubSimulator({ webhookSecret: SECRET });
// The evaluator: the `llm` kind (OpenAI-compatible) against a rule-based stand-in for a model on
// 127.0.0.1, which the App's operator allows (AGATE_EVALUATOR_BASE_URLS) as any local endpoint.
// It needs no key and no sandbox; the `command` kind needs bubblewrap (docs/evaluator.md).
const model = await startDemoModel();
const agate = await startSimulatorApp(
  sim,
  {
    WEBHOOK_SECRET: SECRET,
    AGATE_DATABASE_URL: `file:${DATABASE}`,
    AGATE_EVALUATOR_BASE_URLS: model.url,
    // A failed request is not retried, so the step where the endpoint is down is quick.
    AGATE_EVALUATOR_RETRIES: "0",
  },
  { log: recordingLog() },
);
const settle = () => settleApp(sim, agate);

/** codex[bot] commits `files` to `branch` of the demo's repository and pushes: the new head. */
const agentCommit = (branch: string, files: Record<string, string>, message: string) =>
  sim.pushCommit({ repo: REPO, branch, files, author: "codex[bot]", message });

function step(title: string) {
  console.log(`\n▶ ${title}`);
}
/** The title of the check shown last: a step that did not come out as expected names it as the cause. */
let lastTitle = "";
function expectThat(ok: boolean, what: string) {
  console.log(`  ${ok ? "✓" : "✗"} ${what}`);
  if (!ok) failures.push(lastTitle ? `${what}\n    the check said: ${lastTitle}` : what);
}
/** One line of a summary, cut to a terminal's width: the whole summary is on the check. */
const line = (text: string, width = 160) =>
  text.length <= width ? text : `${text.slice(0, width - 1)}…`;
/** Prints the App's `agate` check on a commit as a maintainer sees it, and returns it. */
function showCheck(sha: string) {
  const check = sim
    .checkRuns({ repo: REPO })
    .filter((c) => c.name === "agate" && c.headSha === sha)
    .at(-1);
  const state = check?.status === "completed" ? check.conclusion : check?.status;
  lastTitle = `${state ?? "no check"}: ${check?.output?.title ?? ""}`;
  console.log(line(`  agate check on ${sha.slice(0, 7)}: ${lastTitle}`));
  const table = (check?.output?.summary ?? "")
    .split("\n")
    .filter((row) => row.startsWith("| ") && !row.startsWith("| ---"));
  for (const row of table.slice(0, 8)) console.log(line(`    ${row}`));
  return check;
}
const ci = (head: string, branch = BRANCH) =>
  simulatedCi({ sim, repo: REPO, branch, head, temp, settle });
const CLI = resolve(import.meta.dirname, "..", "dist", "cli", "index.js");
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();
/**
 * The work items of a summary: the first line's Next, then the checklist of the others (each is
 * said once).
 */
function workItems(summary: string): string[] {
  const [first = "", ...rest] = summary.split("\n");
  const next = /\*\*Next:\*\* (.*?)(?:; \d+ more work items? below)?\.$/.exec(first)?.[1];
  const more = rest.filter((line) => line.startsWith("- [ ] ")).map((line) => line.slice(6));
  return next ? [next, ...more] : more;
}
/** The handoff file row of the check's summary, and its findings as next work items. */
function handoffOf(sha: string) {
  const summary = showCheck(sha)?.output?.summary ?? "";
  return {
    row: summary.split("\n").find((line) => line.startsWith("| handoff file |")) ?? "",
    items: workItems(summary).filter((item) => item.startsWith("Fix .agate/handoff.md: ")),
  };
}

try {
  console.log(`agate App at ${agate.url}, GitHub simulator at ${sim.apiUrl}, store ${DATABASE}`);
  console.log(
    `The evaluator is a stand-in, not a model: ${model.url} speaks the OpenAI wire format and answers by a rule (each "requires: <path>" line of the rubric is met when the diff changes that path). With a real model, only the config's evaluator section changes.`,
  );
  if (!ACTION_CAN_ISOLATE) {
    console.log(
      "The demo runs neither as root nor with AGATE_REQUIRE_ISOLATION_TESTS=1, so its config allows records made as agate's own user (evidence.isolation: shared-allowed) where its CI cannot make the commands a user of their own. On a GitHub-hosted runner nothing needs to be set.",
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
      "  kind: llm",
      "  provider: openai",
      `  model: ${DEMO_MODEL_NAME}`,
      `  base_url: ${model.url}`,
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
  let head = await agentCommit(BRANCH, { "src/answer.txt": "41\n" }, "Compute the answer");
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
  /** The agent's pull request, as the store names it. */
  const thePull = { repository: `${sim.owner}/${REPO}`, pullNumber: number };
  if (!SMOKE) {
    step("The agent pushes a fix");
    const first = head;
    head = await agentCommit(BRANCH, { "src/answer.txt": "42\n" }, "Fix the answer");
    await settle();
    expectThat(
      showCheck(head)?.status === "in_progress",
      "the new head waits for its own evidence",
    );
    const records = await agate.store.listRecords(thePull);
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
    const items = workItems(halfDone?.output?.summary ?? "");
    for (const item of items) console.log(`    next work item: ${item}`);
    expectThat(
      items.includes("`Change README.md: document the answer for users`"),
      "its missing item is the next work item in the summary",
    );

    step("The agent does the missing work");
    head = await agentCommit(
      BRANCH,
      { "README.md": "# widgets\n\nThe answer is 42.\n" },
      "Document the answer",
    );
    await settle();
    await ci(head);
    expectThat(
      showCheck(head)?.conclusion === "success",
      "every command passed on this exact commit and the evaluator signed off → accepted",
    );
    const judged = await agate.store.listEvaluations(thePull);
    expectThat(
      judged.length === 2 && judged.every((e) => e.run.model === DEMO_MODEL_NAME),
      `two evaluations stored, one per tree, each naming who judged (the model ${DEMO_MODEL_NAME})`,
    );

    step("The agent also edits the evidence workflow");
    head = await agentCommit(
      BRANCH,
      {
        ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT.replace(
          "pull_request:",
          "pull_request: {}",
        ),
      },
      "Tidy the workflow",
    );
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
    let long = await agentCommit(
      LONG,
      { "src/answer.txt": "42\n", "README.md": "# widgets\n\nThe answer is 42.\n" },
      "Answer and document it",
    );
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
    long = await agentCommit(
      LONG,
      {
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
      "Handoff",
    );
    await settle();
    await ci(long, LONG);
    const falseList = handoffOf(long);
    for (const item of falseList.items) console.log(`    next work item: ${item}`);
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
    long = await agentCommit(
      LONG,
      { ".agate/handoff.md": readFileSync(join(clone, ".agate/handoff.md"), "utf8") },
      "Handoff from agate handoff",
    );
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

  if (!SMOKE) {
    step("The evaluator's endpoint goes down while an agent's pull request is graded");
    const DOWN = "codex/docs";
    const documented = { "src/answer.txt": "42\n", "README.md": "# widgets\n\nThe answer: 42.\n" };
    const down = await agentCommit(DOWN, documented, "Answer, documented");
    await sim.openPullRequest({ repo: REPO, head: DOWN, title: "Answer", user: "codex[bot]" });
    await settle();
    model.down(true);
    await ci(down, DOWN);
    const blocked = showCheck(down);
    expectThat(
      blocked?.conclusion === "failure" &&
        (blocked.output?.title ?? "").includes("evaluator unavailable") &&
        (blocked.output?.summary ?? "")
          .split("\n")[0]
          ?.includes("Ask agate's operator to fix the evaluator") === true,
      "the evaluator cannot be asked → blocked (not rejected: the fix is the operator's), with the fix first",
    );
    step("The endpoint is back; a maintainer chooses Re-run evaluator on the check");
    model.down(false);
    await sim.requestCheckRunAction({
      repo: REPO,
      checkRunId: blocked?.id ?? 0,
      identifier: "rerun-evaluator",
    });
    await settle();
    expectThat(
      showCheck(down)?.conclusion === "success",
      "asked again on the same tree, the evaluator signs off → accepted, with no new run",
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
  await model.close();
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
