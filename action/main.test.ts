import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandRecordSchema } from "../schemas/command-record.js";
import { gateStatusSchema } from "../schemas/gate-status.js";
import { ACTION_BUNDLE, parseFileCommand, runActionBundle } from "../test/support/action-runner.js";
import { makeRepo, type TestRepo } from "../test/support/git-repo.js";
import { type RunnerUser, runnerUser, testConfig } from "../test/support/runner-users.js";
import { webhookExample } from "../test/support/webhook-examples.js";

const CONFIG = ".github/agate.yml";
const FIXTURE_TRACES = join(import.meta.dirname, "..", "test", "fixtures", "traces");

interface PullRequestCheckout {
  repo: TestRepo;
  base: string;
  head: string;
  merge: string;
}

/** What actions/checkout leaves on pull_request: the merge commit of head into base, detached. */
function pullRequestCheckout(
  baseFiles: Record<string, string>,
  headFiles: Record<string, string | null>,
): PullRequestCheckout {
  const repo = makeRepo("agate-action-");
  const base = repo.commit(baseFiles, "base");
  repo.git("checkout", "--quiet", "-b", "codex/task");
  const head = repo.commit(headFiles, "agent work");
  repo.git("checkout", "--quiet", "main");
  repo.git("merge", "--quiet", "--no-ff", "-m", "Merge head into base", "codex/task");
  const merge = repo.git("rev-parse", "HEAD").trim();
  repo.git("checkout", "--quiet", "--detach", merge);
  return { repo, base, head, merge };
}

async function runBundle(
  checkout: PullRequestCheckout,
  inputs: Record<string, string> = {},
  bundle?: string,
  runAs?: RunnerUser,
) {
  const event = webhookExample("pull_request", "synchronize");
  event.pull_request.number = 7;
  event.pull_request.head.sha = checkout.head;
  event.pull_request.base.sha = checkout.base;
  event.repository.full_name = "octo/repo";
  return runActionBundle({
    cwd: checkout.repo.dir,
    eventName: "pull_request",
    event,
    repository: "octo/repo",
    inputs,
    bundle,
    ...(runAs ? { runAs } : {}),
  });
}

let checkout: PullRequestCheckout | undefined;
const cleanup: TestRepo[] = [];
afterEach(() => {
  checkout?.repo.remove();
  for (const repo of cleanup.splice(0)) repo.remove();
});

/** The base config's text (`config`: on a machine where no commands user can be made, shared-allowed). */
const rawConfig = (commands: Record<string, string>) =>
  `version: 1\ncommands:\n${Object.entries(commands)
    .map(([name, run]) => `  - name: ${name}\n    run: ${JSON.stringify(run)}\n`)
    .join("")}`;

/**
 * Where a command finds a file-command file of the step: the runner keeps them in its own
 * directory (on GitHub, RUNNER_TEMP/_runner_file_commands), which code of agate's user can search.
 * (action-runner.ts names them output, env, path and summary.)
 */
const FILE_NAMES: Record<string, string> = {
  GITHUB_OUTPUT: "output",
  GITHUB_ENV: "env",
  GITHUB_PATH: "path",
  GITHUB_STEP_SUMMARY: "summary",
};
const steal = (name: string) => `$RUNNER_TEMP/${FILE_NAMES[name]}`;

/**
 * The runner where the commands share agate's user: a self-hosted one without sudo, whose base
 * config allows that (evidence.isolation: shared-allowed); on a machine that cannot make that user
 * (no root, no sudo), this process's own user is one.
 */
const selfHosted = (() => {
  const user = runnerUser("plain");
  return typeof user === "string" ? undefined : user;
})();
const SHARED_ALLOWED = "evidence:\n  isolation: shared-allowed\n";
const config = (commands: Record<string, string>) => testConfig(rawConfig(commands));

describe("the Action bundle, run the way the runner runs it", () => {
  it("runs the base's commands on the merge commit and records what it tested", async () => {
    checkout = pullRequestCheckout(
      { [CONFIG]: config({ unit: "echo unit ok", feature: "cat feature.txt" }) },
      { "feature.txt": "feature\n", [CONFIG]: config({ unit: "true" }) },
    );
    const result = await runBundle(checkout);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.outputs.passed).toBe("true");
    expect(result.outputs["tested-sha"]).toBe(checkout.merge);
    expect(result.outputs["failed-commands"]).toBe("[]");
    expect(JSON.parse(result.outputs.status ?? "")).toMatchObject({
      state: "waiting",
      action: "wait",
    });

    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(result.outputs["record-path"] ?? "", "utf8")),
    );
    expect(record.tested.parents).toEqual([checkout.base, checkout.head]);
    expect(record.pull_request).toEqual({
      number: 7,
      head_sha: checkout.head,
      base_sha: checkout.base,
    });
    expect(record.commands.map((c) => c.name)).toEqual(["unit", "feature"]);
    expect(record.workflow).toEqual({
      run_id: 4242,
      run_attempt: 1,
      workflow_ref: "octo/repo/.github/workflows/ci.yml@refs/heads/main",
      job: "gate",
      event_name: "pull_request",
    });
    expect(result.summary).toContain("### agate: 2 of 2 required commands passed");
    expect(result.summary).toContain("| unit | ✅ passed |");
    // The record file lives outside the work tree, so writing it does not dirty the checkout.
    expect(record.tested.clean).toBe(true);
  });

  it("fails the step when a command fails, with the failing tail in the summary", async () => {
    checkout = pullRequestCheckout(
      { [CONFIG]: config({ ok: "true", broken: "echo 'expected 3 to be 4' >&2; exit 1" }) },
      { "a.txt": "a\n" },
    );
    const result = await runBundle(checkout);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("::error::agate: 1 of 2 required commands failed on");
    expect(result.outputs.passed).toBe("false");
    expect(result.outputs["failed-commands"]).toBe('["broken"]');
    // The same verdict as data (the `status` output, schemas/gate-status.ts).
    expect(gateStatusSchema.parse(JSON.parse(result.outputs.status ?? ""))).toMatchObject({
      source: "action",
      repository: "octo/repo",
      pull_request: 7,
      head_sha: checkout.head,
      state: "rejected",
      action: "work",
      failing_commands: [{ name: "broken", exit_code: 1, output_tail: "expected 3 to be 4\n" }],
    });
    expect(result.summary).toContain("<details open><summary>broken: failed (exit 1)</summary>");
    expect(result.summary).toContain("expected 3 to be 4");
  });

  it("with fail-on-command-failure false, a failure warns and the step passes", async () => {
    checkout = pullRequestCheckout({ [CONFIG]: config({ broken: "exit 2" }) }, { "a.txt": "a\n" });
    const result = await runBundle(checkout, { "fail-on-command-failure": "false" });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("::warning::agate: 1 of 1 required commands failed");
    expect(result.outputs.passed).toBe("false");
  });

  it("workflow commands printed by a command are not obeyed", async () => {
    checkout = pullRequestCheckout(
      {
        [CONFIG]: config({
          hostile: "echo '::endgroup::'; echo '::set-output name=passed::true'; exit 1",
        }),
      },
      { "a.txt": "a\n" },
    );
    const result = await runBundle(checkout);
    const stop = /::stop-commands::([0-9a-f]{32})\n/.exec(result.stdout);
    expect(stop).not.toBeNull();
    const [before, after] = result.stdout.split(stop?.[0] ?? "");
    expect(before).toContain("::group::agate: hostile");
    expect(after).toContain("::set-output name=passed::true");
    expect(after?.indexOf("::set-output name=passed::true")).toBeLessThan(
      after?.indexOf(`::${stop?.[1]}::`) ?? -1,
    );
    expect(result.outputs.passed).toBe("false");
  });

  it("a base without a config: one line, exit 0", async () => {
    checkout = pullRequestCheckout(
      { "README.md": "hi\n" },
      { [CONFIG]: config({ sneaky: "true" }) },
    );
    const result = await runBundle(checkout);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(
      `agate: the base commit ${checkout.base} has no .github/agate.yml, so this repository has not adopted agate; nothing to do.`,
    );
  });

  it("a malformed base config fails with an annotation at its line and column", async () => {
    checkout = pullRequestCheckout(
      {
        [CONFIG]:
          "version: 1\ncommands:\n  - name: test\n    run: npm test\n    timeout: 10x\nbugdets: {}\n",
      },
      { "a.txt": "a\n" },
    );
    const result = await runBundle(checkout);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      '::error title=agate config,file=.github/agate.yml,line=5,col=14::commands[0].timeout: "10x" is not a duration such as 90s, 10m or 1h',
    );
    expect(result.stdout).toContain(
      "::error title=agate config,file=.github/agate.yml,line=6,col=1::bugdets: unknown key; did you mean budgets?",
    );
  });

  it("off a runner (no ACTIONS_RUNTIME_TOKEN) it warns once that the App cannot see the evidence, and keeps file, outputs and summary", async () => {
    checkout = pullRequestCheckout({ [CONFIG]: config({ ok: "true" }) }, { "a.txt": "a\n" });
    const result = await runBundle(checkout, { token: "" });
    expect(result.status).toBe(0);
    expect(result.stdout.match(/::warning::/g)).toHaveLength(1);
    expect(result.stdout).toContain(
      "::warning::agate: not on a GitHub Actions runner (no ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL), so the command record was not uploaded and the App cannot see this evidence",
    );
    expect(result.outputs["record-path"]).toBe(join(result.temp, "agate", "command-record.json"));
    expect(result.outputs.passed).toBe("true");
    expect(result.summary).toContain(
      "The record was not uploaded (not on a GitHub Actions runner)",
    );
    commandRecordSchema.parse(
      JSON.parse(readFileSync(result.outputs["record-path"] ?? "", "utf8")),
    );
  });

  it("a run that uploads nothing and reads no trace never loads the artifact client or the trace reader (their chunks can be missing)", async () => {
    checkout = pullRequestCheckout({ [CONFIG]: config({ ok: "true" }) }, { "a.txt": "a\n" });
    const copy = mkdtempSync(join(tmpdir(), "agate-bundle-"));
    try {
      cpSync(dirname(ACTION_BUNDLE), copy, { recursive: true });
      const chunks = readdirSync(join(copy, "chunks"));
      const lazy = chunks.filter((name) => /^(artifact|trace-summary)-/.test(name));
      expect(lazy).toHaveLength(2);
      for (const name of lazy) rmSync(join(copy, "chunks", name));
      const result = await runBundle(checkout, {}, join(copy, "index.js"));
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.outputs.passed).toBe("true");
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
    // agate run never uploads: the CLI bundle does not contain the client at all.
    expect(
      readFileSync(join(dirname(ACTION_BUNDLE), "..", "cli", "index.js"), "utf8"),
    ).not.toContain("DefaultArtifactClient");
  });

  it("an earlier step's edit makes clean_before false and is named; each command's changes are its own", async () => {
    checkout = pullRequestCheckout(
      {
        [CONFIG]: config({
          install: "mkdir -p node_modules && echo x > node_modules/x.js && echo built > dist.txt",
          test: "echo changed > src.txt && rm old.txt",
          lint: "true",
        }),
        ".gitignore": "node_modules/\n",
        "src.txt": "src\n",
        "old.txt": "old\n",
      },
      { "a.txt": "a\n" },
    );
    // A step before agate edits a tracked file and adds an untracked one.
    checkout.repo.write({ "a.txt": "edited by an earlier step\n", "stray.txt": "x\n" });
    const result = await runBundle(checkout);
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).toContain(
      "::warning::agate: before the first command, 2 path(s) already differed from the tested commit",
    );
    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(result.outputs["record-path"] ?? "", "utf8")),
    );
    expect(record.version).toBe(2);
    expect(record.tested).toMatchObject({
      sha: checkout.merge,
      clean_before: false,
      dirty_before: ["a.txt", "stray.txt"],
      clean: false,
    });
    expect(record.commands.map((c) => [c.name, c.changed_paths, c.changed_paths_count])).toEqual([
      ["install", ["dist.txt"], 1],
      ["test", ["old.txt", "src.txt"], 2],
      ["lint", [], 0],
    ]);
    expect(result.summary).toContain(
      "**The work tree already differed from the tested commit before the first command**",
    );
    expect(result.summary).toContain("| test | ✅ passed |");
  });

  it("a shallow merge checkout as actions/checkout makes one gives a valid record", async () => {
    // The server side: base, the pull request's head, and GitHub's test merge commit.
    const origin = pullRequestCheckout(
      { [CONFIG]: config({ unit: "cat feature.txt" }) },
      { "feature.txt": "feature\n" },
    );
    origin.repo.git("update-ref", "refs/pull/7/merge", origin.merge);
    const repo = makeRepo("agate-shallow-");
    checkout = { ...origin, repo };
    cleanup.push(origin.repo);
    // actions/checkout@v4 on pull_request, fetch-depth 1, persist-credentials false.
    repo.git("remote", "add", "origin", `file://${origin.repo.dir}`);
    repo.git(
      "fetch",
      "--quiet",
      "--no-tags",
      "--depth=1",
      "origin",
      "+refs/pull/7/merge:refs/remotes/pull/7/merge",
    );
    repo.git("checkout", "--quiet", "--force", "refs/remotes/pull/7/merge");
    // The shallow boundary: git reports no parents, and the base is not there.
    expect(repo.git("rev-list", "--parents", "-n", "1", "HEAD").trim()).toBe(origin.merge);
    expect(() => repo.git("cat-file", "-e", `${origin.base}^{commit}`)).toThrow();
    const result = await runBundle(checkout);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("(read with git)");
    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(result.outputs["record-path"] ?? "", "utf8")),
    );
    expect(record.tested).toMatchObject({
      sha: origin.merge,
      tree_sha: origin.repo.git("rev-parse", `${origin.merge}^{tree}`).trim(),
      parents: [origin.base, origin.head],
      clean_before: true,
      clean: true,
    });
    expect(record.commands[0]?.output.tail).toBe("feature\n");
  });

  it("the commands cannot set the step's outputs, the job's environment or PATH, or the summary", async () => {
    // Where they share agate's user, they find the file-command files in the runner's directory
    // and write to them, directly and from a background process that would write later.
    checkout = pullRequestCheckout(
      {
        [CONFIG]: `${rawConfig({
          forge: [
            `echo passed=true >> "${steal("GITHUB_OUTPUT")}"`,
            `echo 'failed-commands=[]' >> "${steal("GITHUB_OUTPUT")}"`,
            `echo NODE_OPTIONS=--require=/tmp/evil.js >> "${steal("GITHUB_ENV")}"`,
            `echo /tmp/evil >> "${steal("GITHUB_PATH")}"`,
            `echo "# all $(echo green)-forged" >> "${steal("GITHUB_STEP_SUMMARY")}"`,
            `OUT="${steal("GITHUB_OUTPUT")}"; (sleep 2; echo passed=true >> "$OUT") &`,
            'echo passed=true >> "$GITHUB_OUTPUT" 2>/dev/null || true',
            "exit 1",
          ].join("\n"),
        })}${SHARED_ALLOWED}`,
      },
      { "a.txt": "a\n" },
    );
    const result = await runBundle(checkout, {}, undefined, selfHosted);
    expect(result.status).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const after = parseFileCommand(readFileSync(join(result.temp, "output"), "utf8"));
    expect(after.passed).toBe("false");
    expect(after["failed-commands"]).toBe('["forge"]');
    expect(readFileSync(join(result.temp, "output"), "utf8")).not.toMatch(/^passed=true$/m);
    expect(result.envFile).toBe("");
    expect(result.pathFile).toBe("");
    expect(result.summary).not.toContain("all green-forged");
    expect(result.summary).toContain("1 of 1 required commands failed");
  });

  it("a FIFO or a symlink a command puts at a file-command path neither blocks agate nor is written through", async () => {
    checkout = pullRequestCheckout(
      {
        [CONFIG]: `${rawConfig({
          swap: [
            // A FIFO with no reader: opening it to write would wait forever.
            `OUT="${steal("GITHUB_OUTPUT")}"; rm -f "$OUT"; mkfifo "$OUT"`,
            // A symlink to a file of the work tree: emptying it must not empty that file.
            `ENVF="${steal("GITHUB_ENV")}"; rm -f "$ENVF"; ln -s "$PWD/victim.txt" "$ENVF"`,
          ].join("\n"),
        })}${SHARED_ALLOWED}`,
        "victim.txt": "victim\n",
      },
      { "a.txt": "a\n" },
    );
    const result = await runBundle(checkout, {}, undefined, selfHosted);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.outputs.passed).toBe("true");
    expect(result.envFile).toBe("");
    expect(readFileSync(join(checkout.repo.dir, "victim.txt"), "utf8")).toBe("victim\n");
  });

  it("a FIFO a command leaves where agate writes the record's copy does not block it", async () => {
    checkout = pullRequestCheckout(
      {
        [CONFIG]: `${rawConfig({
          plant: 'mkdir -p "$RUNNER_TEMP/agate" && mkfifo "$RUNNER_TEMP/agate/command-record.json"',
        })}${SHARED_ALLOWED}`,
      },
      { "a.txt": "a\n" },
    );
    const result = await runBundle(checkout, {}, undefined, selfHosted);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.outputs["record-path"]).toBe(join(result.temp, "agate", "command-record.json"));
    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(result.outputs["record-path"] ?? "", "utf8")),
    );
    expect(record.commands.map((c) => [c.name, c.exit_code])).toEqual([["plant", 0]]);
  });

  it("a command that deletes the trace reader's chunk changes nothing: with a trace input it was loaded before the commands", async () => {
    const copy = mkdtempSync(join(tmpdir(), "agate-bundle-"));
    const traces = mkdtempSync(join(tmpdir(), "agate-traces-"));
    try {
      cpSync(dirname(ACTION_BUNDLE), copy, { recursive: true });
      // Writable by anyone, so the commands' user (or agate's own, sharing it) can delete it.
      chmodSync(copy, 0o777);
      chmodSync(join(copy, "chunks"), 0o777);
      const chunk = readdirSync(join(copy, "chunks")).find((n) => n.startsWith("trace-summary-"));
      expect(chunk).toBeDefined();
      checkout = pullRequestCheckout(
        { [CONFIG]: config({ remove: `rm ${join(copy, "chunks", chunk ?? "")}` }) },
        { "a.txt": "a\n" },
      );
      cpSync(join(FIXTURE_TRACES, "codex.jsonl"), join(traces, "codex.jsonl"));
      const result = await runBundle(
        checkout,
        { token: "", trace: join(traces, "codex.jsonl") },
        join(copy, "index.js"),
      );
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(readdirSync(join(copy, "chunks"))).not.toContain(chunk);
      expect(result.summary).toContain(
        `### Agent trace \`${join(traces, "codex.jsonl")}\`: no stall found`,
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
      rmSync(traces, { recursive: true, force: true });
    }
  });

  it("a trace input adds each trace's progress report to the summary; a bad trace never changes the verdict", async () => {
    checkout = pullRequestCheckout({ [CONFIG]: config({ ok: "true" }) }, { "a.txt": "a\n" });
    // Outside the work tree, as a downloaded trace artifact would be.
    const traces = mkdtempSync(join(tmpdir(), "agate-traces-"));
    try {
      cpSync(join(FIXTURE_TRACES, "codex.jsonl"), join(traces, "codex.jsonl"));
      cpSync(join(FIXTURE_TRACES, "claude-code.jsonl"), join(traces, "claude.jsonl"));
      const good = await runBundle(checkout, { token: "", trace: join(traces, "*.jsonl") });
      expect(good.status, good.stdout + good.stderr).toBe(0);
      expect(good.outputs.passed).toBe("true");
      expect(good.summary).toContain(
        `### Agent trace \`${join(traces, "claude.jsonl")}\`: no stall found`,
      );
      expect(good.summary).toContain(
        `### Agent trace \`${join(traces, "codex.jsonl")}\`: no stall found`,
      );
      expect(good.summary).toMatch(/Budgets: model calls 3 · tool calls 3/);
      expect(good.summary).toContain(
        "The trace reports are not uploaded (not on a GitHub Actions runner).",
      );
      // No second warning: the one about the record's upload stays the only one.
      expect(good.stdout.match(/::warning::/g)).toHaveLength(1);

      writeFileSync(join(traces, "broken.jsonl"), '{"type":"session_meta","payload":{}}\n{oops\n');
      const bad = await runBundle(checkout, { token: "", trace: join(traces, "broken.jsonl") });
      expect(bad.status, bad.stdout + bad.stderr).toBe(0);
      expect(bad.outputs.passed).toBe("true");
      expect(bad.summary).toContain(
        `### Agent trace \`${join(traces, "broken.jsonl")}\`: not read`,
      );
      expect(bad.summary).toContain("line 2: not valid JSON");

      const failing = pullRequestCheckout(
        { [CONFIG]: config({ bad: "exit 3" }) },
        { "a.txt": "a\n" },
      );
      cleanup.push(failing.repo);
      const none = await runBundle(failing, { token: "", trace: join(traces, "missing-*.jsonl") });
      expect(none.status).toBe(1);
      expect(none.outputs.passed).toBe("false");
      expect(none.summary).toContain("no file matches");

      // The base config's progress section applies (a budget of 2 tool calls: codex made 3);
      // the head's own copy of the config is not what counts.
      const budgeted = pullRequestCheckout(
        { [CONFIG]: `${config({ ok: "true" })}progress:\n  max_tool_calls: 2\n` },
        {
          "a.txt": "a\n",
          [CONFIG]: `${config({ ok: "true" })}progress:\n  max_tool_calls: 50\n`,
        },
      );
      cleanup.push(budgeted.repo);
      const over = await runBundle(budgeted, { token: "", trace: join(traces, "codex.jsonl") });
      expect(over.status, over.stdout + over.stderr).toBe(0);
      expect(over.outputs.passed).toBe("true");
      expect(over.summary).toContain(
        `### Agent trace \`${join(traces, "codex.jsonl")}\`: not stalled; over a budget`,
      );
    } finally {
      rmSync(traces, { recursive: true, force: true });
    }
  });

  it("invalid inputs are named", async () => {
    checkout = pullRequestCheckout({ [CONFIG]: config({ ok: "true" }) }, { "a.txt": "a\n" });
    const result = await runBundle(checkout, { "fail-on-command-failure": "yes" });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      '::error::agate: invalid inputs: input fail-on-command-failure must be true or false, got "yes"',
    );
  });

  it("on merge_group, the config comes from the group's base and the record names the group", async () => {
    const repo = makeRepo("agate-queue-");
    checkout = { repo, base: "", head: "", merge: "" };
    const base = repo.commit({ [CONFIG]: config({ queued: "echo from-base" }) }, "base");
    const groupHead = repo.commit(
      { [CONFIG]: config({ queued: "echo from-head" }), "a.txt": "a\n" },
      "queued",
    );
    const event = webhookExample("merge_group", "checks_requested");
    event.merge_group.base_sha = base;
    event.merge_group.head_sha = groupHead;
    event.repository.full_name = "octo/repo";
    const result = await runActionBundle({
      cwd: repo.dir,
      eventName: "merge_group",
      event,
      repository: "octo/repo",
    });
    expect(result.status, result.stdout).toBe(0);
    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(result.outputs["record-path"] ?? "", "utf8")),
    );
    expect(record.commands.map((c) => c.output.tail)).toEqual(["from-base\n"]);
    expect(record.merge_group).toEqual({
      head_ref: event.merge_group.head_ref,
      head_sha: groupHead,
      base_sha: base,
    });
    expect(record.pull_request).toBeNull();
    expect(record.tested.sha).toBe(groupHead);
  });
});
