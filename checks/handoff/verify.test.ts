import { describe, expect, it } from "vitest";
import type { CommandRecord, CommandResult } from "../../schemas/command-record.js";
import type { ChangedFile, HandoffFacts } from "../../schemas/gate.js";
import type { HandoffFrontMatter } from "../../schemas/handoff-file.js";
import { renderHandoffFile } from "./parse-handoff.js";
import { AGATE_CLI, type VerifyHandoffInput, verifyHandoff } from "./verify.js";

const PATH = ".agate/handoff.md";
const HEAD = "1".repeat(40);
const BLOB = "b".repeat(40);
const CODE_SHA = "c0ffee0".padEnd(40, "0");

const FRONT: HandoffFrontMatter = {
  task: "#12",
  branch: "agent/retry",
  status: "ready",
  changed_files: ["src/a.ts", "src/new-name.ts"],
  last_command: { run: "npm test", exit_code: 0, output_tail: "ok\n" },
  next_step: "",
  open_items: [],
};

const CHANGED: ChangedFile[] = [
  { filename: "src/a.ts", previous_filename: null, status: "modified" },
  { filename: "src/new-name.ts", previous_filename: "src/old-name.ts", status: "renamed" },
  { filename: PATH, previous_filename: null, status: "added" },
];

const command = (over: Partial<CommandResult>): CommandResult => ({
  name: "test",
  run: "npm test",
  exit_code: 0,
  signal: null,
  timed_out: false,
  started_at: "2026-12-01T12:00:00Z",
  duration_ms: 10,
  output: {
    bytes: 3,
    sha256: "0".repeat(64),
    normalized_sha256: "0".repeat(64),
    tail: "ok\n",
    truncated: false,
  },
  changed_paths: [],
  changed_paths_count: 0,
  ...over,
});

const RECORD: CommandRecord = {
  kind: "agate.command-record",
  version: 2,
  repository: "octo/repo",
  tested: {
    sha: HEAD,
    tree_sha: "2".repeat(40),
    parents: [],
    clean_before: true,
    dirty_before: [],
    clean: true,
    dirty_digest: null,
  },
  pull_request: null,
  merge_group: null,
  commands: [command({ name: "lint", run: "npm run lint" }), command({})],
  runner: { os: "linux", arch: "x64", image_version: null, node_version: "v20" },
  grader: { agate_version: "0.1.0", config_digest: "3".repeat(64) },
  workflow: null,
  cut: [],
  created_at: "2026-12-01T12:00:00Z",
};

const facts = (text: string | null, over: Partial<HandoffFacts> = {}): HandoffFacts => ({
  file: text === null ? null : { path: PATH, blob_sha: BLOB, text },
  observed_at: "2026-12-02T12:00:00Z",
  opened_at: "2026-12-01T12:00:00Z",
  commit_count: 3,
  changed_lines: 40,
  commits: [],
  newest_change: { sha: CODE_SHA, files: ["src/a.ts", PATH] },
  ...over,
});

const verify = (
  front: Partial<HandoffFrontMatter> | null,
  over: Partial<VerifyHandoffInput> = {},
) =>
  verifyHandoff({
    path: PATH,
    requiredBy: ["the label long-task (handoff.required_when.labels)"],
    facts: facts(front === null ? null : renderHandoffFile({ ...FRONT, ...front }, "notes\n")),
    headRef: "agent/retry",
    changedFiles: CHANGED,
    record: RECORD,
    ...over,
  });

describe("verifyHandoff", () => {
  it("has no findings for a true file, and carries blob, status and the rules", () => {
    expect(verify({})).toEqual({
      path: PATH,
      required_by: ["the label long-task (handoff.required_when.labels)"],
      blob_sha: BLOB,
      valid: true,
      status: "ready",
      findings: [],
    });
  });

  it("says when there is no file at the head commit", () => {
    expect(verify(null)).toMatchObject({
      blob_sha: null,
      valid: false,
      status: null,
      findings: [`there is no ${PATH} at the head commit`],
    });
  });

  it("is invalid with each parse error, located in the file", () => {
    const check = verifyHandoff({
      path: PATH,
      requiredBy: [],
      facts: facts("---\ntask: t\nbranch: agent/retry\nstatus: done\nchanged_files: x\n---\n"),
      headRef: "agent/retry",
      changedFiles: CHANGED,
      record: RECORD,
    });
    expect(check).toMatchObject({ blob_sha: BLOB, valid: false, status: null });
    expect(check.findings).toEqual([
      `\`${PATH}:4:9: status: "done" is not one of in-progress, ready, blocked\``,
      `\`${PATH}:5:16: changed_files: expected a list, got "x"\``,
    ]);
  });

  it("names a branch that is not the pull request's head branch", () => {
    expect(verify({ branch: "agent/old" }).findings).toEqual([
      "branch is `agent/old`, but the pull request's head branch is `agent/retry`",
    ]);
  });

  it("names each changed file missing from the list and each listed file that does not change", () => {
    const check = verify(
      { changed_files: ["src/a.ts", "src/ghost.ts", "./src/a.ts"] },
      {
        changedFiles: [
          ...CHANGED,
          { filename: "src/gone.ts", previous_filename: null, status: "removed" },
        ],
      },
    );
    expect(check.findings).toEqual([
      "changed_files lacks `src/new-name.ts`, which the pull request changes (renamed from `src/old-name.ts`)",
      "changed_files lacks `src/gone.ts`, which the pull request changes (removed)",
      "changed_files lists `src/ghost.ts`, which the pull request does not change",
    ]);
  });

  it("ignores the handoff file itself on both sides, and accepts a rename's old name", () => {
    expect(
      verify({ changed_files: [PATH, "src/a.ts", "src/new-name.ts", "src/old-name.ts"] }).findings,
    ).toEqual([]);
    expect(
      verify({}, { changedFiles: CHANGED.filter((file) => file.filename !== PATH) }).findings,
    ).toEqual([]);
    // The old name alone does not stand for the new one.
    expect(verify({ changed_files: ["src/a.ts", "src/old-name.ts"] }).findings).toEqual([
      "changed_files lacks `src/new-name.ts`, which the pull request changes (renamed from `src/old-name.ts`)",
    ]);
  });

  it("names at most 20 files of each kind and counts the rest", () => {
    const many = Array.from({ length: 25 }, (_, i) => `gen/${i}.ts`);
    const findings = verify({ changed_files: ["src/a.ts", "src/new-name.ts", ...many] }).findings;
    expect(findings).toHaveLength(21);
    expect(findings.at(-1)).toBe(
      "changed_files lists 5 more files that the pull request does not change",
    );
  });

  it("wants a last command that agate recorded, with the exit code agate recorded", () => {
    expect(verify({ last_command: null }).findings).toEqual([
      `last_command is missing: run \`${AGATE_CLI} run\`, then \`${AGATE_CLI} handoff\`, to record the last command and its exit code`,
    ]);
    expect(
      verify({ last_command: { run: "npm run build", exit_code: 0, output_tail: "" } }).findings,
    ).toEqual([
      "last_command `npm run build` is not one of the commands agate recorded for this commit (lint: `npm run lint`, test: `npm test`)",
    ]);
    expect(
      verify({ last_command: { run: "npm test", exit_code: 1, output_tail: "" } }).findings,
    ).toEqual(["last_command `npm test` says exit code 1, but agate recorded exit code 0"]);
  });

  it("matches the last command by the record's run or name", () => {
    const failing = {
      ...RECORD,
      commands: [command({ name: "lint", run: "npm run lint", exit_code: 2 })],
    };
    const byName = { last_command: { run: "lint", exit_code: 2, output_tail: "" } };
    const byRun = { last_command: { run: "npm run lint", exit_code: 2, output_tail: "" } };
    expect(verify(byName, { record: failing }).findings).toEqual([]);
    expect(verify(byRun, { record: failing }).findings).toEqual([]);
  });

  it("says when agate recorded no exit code (timeout, signal), which the file writes as -1", () => {
    const timedOut = { ...RECORD, commands: [command({ exit_code: null, timed_out: true })] };
    const killed = { ...RECORD, commands: [command({ exit_code: null, signal: "SIGKILL" })] };
    expect(verify({}, { record: timedOut }).findings).toEqual([
      "last_command `npm test` says exit code 0, but agate recorded a timeout (no exit code: write -1)",
    ]);
    expect(verify({}, { record: killed }).findings).toEqual([
      "last_command `npm test` says exit code 0, but agate recorded the signal SIGKILL (no exit code: write -1)",
    ]);
    const minusOne = { last_command: { run: "npm test", exit_code: -1, output_tail: "" } };
    expect(verify(minusOne, { record: timedOut }).findings).toEqual([]);
    expect(verify(minusOne, { record: killed }).findings).toEqual([]);
  });

  it("finds nothing wrong with the last command while there is no record to compare with", () => {
    expect(verify({}, { record: null }).findings).toEqual([]);
    expect(verify({ last_command: null }, { record: null }).findings).toEqual([
      `last_command is missing: run \`${AGATE_CLI} run\`, then \`${AGATE_CLI} handoff\`, to record the last command and its exit code`,
    ]);
  });

  it("calls status ready with a next step or open items a contradiction", () => {
    expect(verify({ next_step: "wire the retry" }).findings).toEqual([
      "status is ready, but next_step is `wire the retry`: a finished task has neither; clear them or set status: in-progress",
    ]);
    expect(verify({ next_step: "x", open_items: ["a", "b"] }).findings).toEqual([
      "status is ready, but next_step is `x` and 2 open items remain: a finished task has neither; clear them or set status: in-progress",
    ]);
  });

  it("does not make a status other than ready a finding, but reports it", () => {
    for (const status of ["in-progress", "blocked"] as const) {
      const check = verify({ status, next_step: "more", open_items: ["x"] });
      expect(check).toMatchObject({ status, findings: [] });
    }
  });

  it("is stale when the newest code change did not touch it", () => {
    const stale = facts(renderHandoffFile(FRONT, ""), {
      newest_change: { sha: CODE_SHA, files: ["src/a.ts"] },
    });
    expect(verify({}, { facts: stale }).findings).toEqual([
      `${PATH} was updated before the newest code change (c0ffee0): run \`${AGATE_CLI} handoff\` and commit it with or after the change`,
    ]);
    // A commit that touched only the handoff file is its update, not a code change.
    const onlyHandoff = { ...stale, newest_change: { sha: CODE_SHA, files: [PATH] } };
    expect(verify({}, { facts: onlyHandoff }).findings).toEqual([]);
    expect(verify({}, { facts: { ...stale, newest_change: null } }).findings).toEqual([]);
  });

  it("is stale, saying why, when GitHub's list of the newest change was cut before the file", () => {
    const cut = facts(renderHandoffFile(FRONT, ""), {
      newest_change: { sha: CODE_SHA, files: ["src/a.ts"], cut: true },
    });
    expect(verify({}, { facts: cut }).findings).toEqual([
      `${PATH} is not among the 3,000 files GitHub lists of the newest code change (c0ffee0), which touched more: agate cannot tell whether it was updated there. Run \`${AGATE_CLI} handoff\` and commit it on its own after that change`,
    ]);
    // Listed, it is fresh, cut or not.
    const listed = { sha: CODE_SHA, files: ["src/a.ts", PATH], cut: true };
    expect(verify({}, { facts: { ...cut, newest_change: listed } }).findings).toEqual([]);
  });

  it("lists every finding in a fixed order: branch, files, command, contradiction, staleness", () => {
    const check = verify(
      { branch: "x", changed_files: ["src/a.ts"], last_command: null, open_items: ["o"] },
      {
        facts: facts(
          renderHandoffFile(
            {
              ...FRONT,
              branch: "x",
              changed_files: ["src/a.ts"],
              last_command: null,
              open_items: ["o"],
            },
            "",
          ),
          { newest_change: { sha: CODE_SHA, files: ["src/a.ts"] } },
        ),
      },
    );
    expect(check.findings.map((finding) => finding.split(" ")[0])).toEqual([
      "branch",
      "changed_files",
      "last_command",
      "status",
      PATH,
    ]);
  });
});
