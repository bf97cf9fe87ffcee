import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useGateHarness } from "../support/gate-harness.js";
import { GIT_ENV } from "../support/git-repo.js";

/**
 * The handoff file through the whole gate: the simulator's real git repositories, the App's gate
 * reading the file at the head commit, and the real `agate handoff` (the built CLI) writing a
 * true file in a clone.
 */
const gate = useGateHarness();
const CLI = resolve(import.meta.dirname, "..", "..", "dist", "cli", "index.js");
const PATH = ".agate/handoff.md";
const CONFIG = 'version: 1\ncommands:\n  - name: answer\n    run: test "$(cat answer.txt)" = 42\n';

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();

function handoff(fields: {
  branch?: string;
  status?: string;
  files?: string[];
  command?: { run: string; exit_code: number } | null;
  next?: string;
}): string {
  const files = fields.files ?? ["answer.txt"];
  const command =
    fields.command === null
      ? "last_command: null"
      : `last_command:\n  run: ${JSON.stringify(fields.command?.run ?? 'test "$(cat answer.txt)" = 42')}\n  exit_code: ${fields.command?.exit_code ?? 0}`;
  return [
    "---",
    'task: "#1 set the answer"',
    `branch: ${fields.branch ?? "codex/long"}`,
    `status: ${fields.status ?? "ready"}`,
    "changed_files:",
    ...files.map((f) => `  - ${f}`),
    command,
    `next_step: ${JSON.stringify(fields.next ?? "")}`,
    "---",
    "",
    "Notes.",
    "",
  ].join("\n");
}

/** The `handoff file` row's reason and the next work items, from the gate check's summary. */
function handoffState(repo: string, sha: string) {
  const summary = gate.gateCheck(repo, sha)?.output?.summary ?? "";
  const lines = summary.split("\n");
  const row = lines.find((line) => line.startsWith("| handoff file |")) ?? "";
  // The findings, as the work items the summary gives: the first line's Next, then the list.
  const items = [lines[0] ?? "", ...lines.filter((line) => line.startsWith(`- [ ] Fix ${PATH}: `))]
    .filter((line) => line.includes(`Fix ${PATH}: `))
    .join("\n");
  return { row, summary, items };
}

describe("the handoff file in the gate, end to end", { timeout: 120_000 }, () => {
  it("a long task is held without the file, named by its rule; each falsehood is named", {
    timeout: 120_000,
  }, async () => {
    const repo = "long";
    const branch = "codex/long";
    const { sim } = gate;
    const { head } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { config: CONFIG, branch, labels: ["long-task"] },
    );
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "failure" });
    expect(handoffState(repo, head).row).toContain(
      "required by the label long-task (handoff.required_when.labels), but .agate/handoff.md is not at the head commit",
    );
    expect(handoffState(repo, head).summary).toMatch(
      /`npx --yes agate-gate@[\d.]+ handoff --task "<the task>"`/,
    );

    const push = async (files: Record<string, string>) => {
      const sha = await sim.pushCommit({ repo, branch, files, author: "codex[bot]" });
      await gate.processDeliveries();
      return sha;
    };

    // Invalid: the error carries the line and column.
    let sha = await push({ [PATH]: handoff({}).replace("status: ready", "status: done") });
    expect(handoffState(repo, sha).items).toMatch(/\.agate\/handoff\.md:4:9: .*status/);

    // A false file list, the wrong branch, and a contradiction: each named.
    sha = await push({
      [PATH]: handoff({
        files: ["answer.txt", "src/ghost.ts"],
        branch: "codex/other",
        next: "more",
      }),
      "notes.md": "new file\n",
    });
    const { items } = handoffState(repo, sha);
    expect(items).toMatch(/notes\.md/);
    expect(items).toMatch(/src\/ghost\.ts/);
    expect(items).toContain("codex/other");
    expect(items).toMatch(/ready.*next_step|next_step.*ready/);

    // A last command that is not agate's, or whose exit code differs from agate's record.
    const withLastCommand = async (command: { run: string; exit_code: number }) => {
      const at = await push({ [PATH]: handoff({ files: ["answer.txt", "notes.md"], command }) });
      await gate.ci(repo, branch, at);
      return at;
    };
    sha = await withLastCommand({ run: "npm test", exit_code: 0 });
    expect(handoffState(repo, sha).items).toContain("npm test");
    sha = await withLastCommand({ run: 'test "$(cat answer.txt)" = 42', exit_code: 1 });
    expect(handoffState(repo, sha).row).toContain("does not agree with the pull request");
    expect(handoffState(repo, sha).items).toMatch(/exit code/);

    // True at last: the requirement passes, and so does the gate.
    sha = await push({ [PATH]: handoff({ files: ["answer.txt", "notes.md"] }) });
    await gate.ci(repo, branch, sha);
    expect(handoffState(repo, sha).row).toContain("✅ pass");
    expect(gate.gateCheck(repo, sha)).toMatchObject({ conclusion: "success" });

    // Code edited after the file: it describes an older state of the branch.
    sha = await push({ "answer.txt": "42\n\n" });
    await gate.ci(repo, branch, sha);
    expect(handoffState(repo, sha).items).toContain("updated before the newest code change");
    expect(gate.gateCheck(repo, sha)).toMatchObject({ conclusion: "failure" });
    const record = (
      await gate.store.listRecords({ repository: `${sim.owner}/${repo}`, pullNumber: 1 })
    ).at(-1);
    expect(record?.handoff).toMatchObject({
      path: PATH,
      required_by: ["the label long-task (handoff.required_when.labels)"],
      valid: true,
      findings: [expect.stringContaining("updated before the newest code change")],
    });
  });

  it("a handoff file the pull request does not touch and no rule requires is not read", async () => {
    const repo = "earlier-work";
    const before = gate.sim.calls["repos/get-content"] ?? 0;
    const { head, branch } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { config: CONFIG, baseFiles: { [PATH]: handoff({ branch: "codex/earlier" }) } },
    );
    // The config and the evidence workflow at the base: nothing else.
    expect((gate.sim.calls["repos/get-content"] ?? 0) - before).toBe(2);
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(handoffState(repo, head).row).toContain(
      "not required: no rule of handoff.required_when applies |",
    );
    expect((gate.sim.calls["repos/get-content"] ?? 0) - before).toBe(2);
  });

  it("the file `agate handoff` writes passes; a second agent session makes it required", async () => {
    const repo = "sessions";
    const branch = "codex/sessions";
    const { sim } = gate;
    const { head } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "41\n" },
      { config: CONFIG, branch, trailers: { "Agent-Session": "s-1" } },
    );
    const second = await sim.pushCommit({
      repo,
      branch,
      files: { "answer.txt": "42\n", "src/answer.ts": "export const answer = 42;\n" },
      author: "codex[bot]",
      trailers: { "Agent-Session": "s-2" },
    });
    await gate.processDeliveries();
    expect(head).not.toBe(second);
    expect(handoffState(repo, second).row).toContain("2 agent sessions (more than 1");

    // The agent ends its session as the docs say: agate run, then agate handoff, in its clone.
    const clone = mkdtempSync(join(gate.temp, "agent-"));
    git(clone, "clone", "--quiet", sim.gitDir({ repo }), ".");
    git(clone, "checkout", "--quiet", branch);
    const run = promisify(execFile);
    await run(process.execPath, [CLI, "run"], { cwd: clone });
    await run(process.execPath, [CLI, "handoff", "--task", "#1 the answer", "--status", "ready"], {
      cwd: clone,
    });
    const written = readFileSync(join(clone, PATH), "utf8");
    expect(written).toContain("branch: codex/sessions");
    const done = await sim.pushCommit({
      repo,
      branch,
      files: { [PATH]: written },
      author: "codex[bot]",
      trailers: { "Agent-Session": "s-2" },
    });
    await gate.processDeliveries();
    await gate.ci(repo, branch, done);
    expect(handoffState(repo, done).row).toContain(
      ".agate/handoff.md is present, valid and true to the pull request",
    );
    expect(gate.gateCheck(repo, done)).toMatchObject({ conclusion: "success" });
  });
});
