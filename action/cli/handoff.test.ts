import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseHandoffFile } from "../../checks/handoff/parse-handoff.js";
import { handoffRequiredBy } from "../../checks/handoff/required.js";
import { AGATE_CLI, verifyHandoff } from "../../checks/handoff/verify.js";
import type { CommandRecord } from "../../schemas/command-record.js";
import { configSchema } from "../../schemas/config.js";
import type { ChangedFile, HandoffFacts } from "../../schemas/gate.js";
import { makeRepo, type TestRepo } from "../../test/support/git-repo.js";
import { runRequiredCommands } from "../required-commands.js";
import { HandoffUsageError, type WriteHandoffOptions, writeHandoff } from "./handoff.js";

const HANDOFF = ".agate/handoff.md";
const CONFIG =
  "version: 1\ncommands:\n  - { name: test, run: test -f src/a.ts }\n  - { name: lint, run: 'true' }\n";

let repo: TestRepo;
afterEach(() => repo?.remove());

/** main with the config, then a branch agent/task with one committed change. */
function branchRepo(config = CONFIG): TestRepo {
  const made = makeRepo("agate-handoff-");
  made.commit({ ".github/agate.yml": config, "src/a.ts": "a\n", "src/old.ts": "old\n" }, "base");
  made.git("checkout", "--quiet", "-b", "agent/task");
  made.commit({ "src/a.ts": "a2\n" }, "work");
  return made;
}

/** What `agate run` does: run the base config's commands and write the local record. */
async function agateRun(dir: string): Promise<CommandRecord> {
  const baseSha = repo.git("merge-base", "HEAD", "main").trim();
  const outcome = await runRequiredCommands({
    cwd: dir,
    configPath: ".github/agate.yml",
    baseSha,
    env: { PATH: process.env.PATH },
    stateDir: join(dir, ".git", "agate"),
    repository: null,
    log: { info() {}, command: (_name, run) => run(), output() {} },
  });
  if (outcome.kind !== "ran") throw new Error("no config at the base");
  const file = join(dir, ".git", "agate", "command-record.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(outcome.record));
  return outcome.record;
}

const write = (options: Partial<WriteHandoffOptions> = {}) =>
  writeHandoff({ cwd: repo.dir, ...options });
const read = (path = HANDOFF) => {
  const parsed = parseHandoffFile(readFileSync(join(repo.dir, path), "utf8"), path);
  if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
  return parsed;
};

describe("writeHandoff", () => {
  it("needs --task for a new file, and says so", () => {
    repo = branchRepo();
    expect(() => write()).toThrow(HandoffUsageError);
    expect(() => write()).toThrow(
      'there is no .agate/handoff.md yet: pass --task "<the task>" (an issue such as #12, or one line) to start it',
    );
  });

  it("lists every file changed against the base: committed, staged, unstaged, untracked, deleted", async () => {
    repo = branchRepo();
    repo.write({ "src/staged.ts": "s\n", ".gitignore": "*.log\n" });
    repo.git("add", "src/staged.ts");
    repo.write({ "src/untracked.ts": "u\n", "debug.log": "ignored\n", "src/old.ts": null });
    await agateRun(repo.dir);

    const written = write({ task: "#12 retry" });
    expect(written).toMatchObject({ path: HANDOFF, created: true, unchanged: false, warnings: [] });
    const { front, body } = read();
    expect(front).toEqual({
      task: "#12 retry",
      branch: "agent/task",
      status: "in-progress",
      changed_files: [".gitignore", "src/a.ts", "src/old.ts", "src/staged.ts", "src/untracked.ts"],
      last_command: { run: "true", exit_code: 0, output_tail: "" },
      next_step: "",
      open_items: [],
    });
    expect(body).toMatch(/^## Notes\n/);
    // The real index is untouched: only what the agent staged is staged.
    expect(repo.git("diff", "--cached", "--name-only")).toBe("src/staged.ts\n");
  });

  it("takes the first failed command as last_command, with the tail of its output", async () => {
    repo = branchRepo(
      "version: 1\ncommands:\n  - { name: ok, run: 'true' }\n  - { name: unit, run: 'printf \"\\033[31mFAIL\\033[0m x\\n\"; exit 3' }\n  - { name: last, run: 'true' }\n",
    );
    await agateRun(repo.dir);
    write({ task: "t" });
    expect(read().front.last_command).toEqual({
      run: 'printf "\\033[31mFAIL\\033[0m x\\n"; exit 3',
      exit_code: 3,
      output_tail: "FAIL x\n",
    });
  });

  it("warns when there is no record, and refuses a record of another commit rather than copy its last_command", async () => {
    repo = branchRepo();
    const first = write({ task: "t" });
    expect(first.front.last_command).toBeNull();
    expect(first.warnings).toEqual([
      `no command record at ${join(repo.dir, ".git", "agate", "command-record.json")}: run \`${AGATE_CLI} run\` first; last_command left empty`,
    ]);
    const record = await agateRun(repo.dir);
    repo.commit({ "src/b.ts": "b\n" }, "more");
    const before = readFileSync(join(repo.dir, HANDOFF), "utf8");
    expect(() => write()).toThrow(HandoffUsageError);
    expect(() => write()).toThrow(
      new RegExp(
        `is of ${record.tested.sha.slice(0, 7)}, but HEAD is [0-9a-f]{7}, and last_command must describe this commit: run \`${AGATE_CLI.replace(/[.]/g, "\\.")} run\``,
      ),
    );
    // The file is left as it was: no last_command of another commit in it.
    expect(readFileSync(join(repo.dir, HANDOFF), "utf8")).toBe(before);
    await agateRun(repo.dir);
    expect(write().front.last_command?.run).toBe("true");
  });

  it("says in the gate's words when status ready contradicts the open items", async () => {
    repo = branchRepo();
    await agateRun(repo.dir);
    const written = write({ task: "t", status: "ready", openItems: ["docs"] });
    expect(written.warnings).toEqual([
      "the gate would reject this: status is ready, but 1 open item remains: a finished task has neither; clear them or set status: in-progress",
    ]);
  });

  it("keeps task, status, next step, open items and notes; flags replace them", async () => {
    repo = branchRepo();
    await agateRun(repo.dir);
    write({ task: "#12", nextStep: "wire retry", openItems: ["limit?", "docs"] });
    const file = join(repo.dir, HANDOFF);
    const edited = readFileSync(file, "utf8").replace(
      "## Notes\n",
      "## Notes\n\nTried A; B is next.\n",
    );
    writeFileSync(file, edited);
    repo.commit({ "src/c.ts": "c\n" }, "more");
    await agateRun(repo.dir);

    const kept = write();
    expect(kept.created).toBe(false);
    expect(read().front).toMatchObject({
      task: "#12",
      status: "in-progress",
      next_step: "wire retry",
      open_items: ["limit?", "docs"],
      changed_files: ["src/a.ts", "src/c.ts"],
    });
    const marker =
      /\n\n<!-- agate handoff: written for the code tree ([0-9a-f]{12}) \(the work tree without this file\) -->\n$/;
    expect(read().body).toMatch(/^## Notes\n\nTried A; B is next\.\n/);
    expect(read().body).toMatch(marker);
    const tree = marker.exec(read().body)?.[1];

    // Same code: nothing to write. New code with the same fields: the marker still changes.
    expect(write().unchanged).toBe(true);
    repo.write({ "src/c.ts": "c2\n" });
    expect(write().unchanged).toBe(false);
    expect(marker.exec(read().body)?.[1]).not.toBe(tree);
    expect(read().body.match(/agate handoff: written/g)).toHaveLength(1);

    const done = write({ status: "ready", nextStep: "", openItems: [""] });
    expect(done.warnings).toEqual([]);
    expect(read().front).toMatchObject({ status: "ready", next_step: "", open_items: [] });

    expect(write({ nextStep: "oops" }).warnings).toContainEqual(
      expect.stringMatching(
        /^the gate would reject this: status is ready, but next_step is `oops`/,
      ),
    );
  });

  it("rejects a bad --status and an unreadable existing file, saying what to fix", () => {
    repo = branchRepo();
    expect(() => write({ task: "t", status: "done" })).toThrow(
      '--status "done" is not one of in-progress, ready, blocked',
    );
    repo.write({ [HANDOFF]: "---\ntask: t\nstatus: finished\n---\n" });
    expect(() => write()).toThrow(
      /cannot be read[\s\S]*\.agate\/handoff\.md:3:9: status: "finished" is not one of[\s\S]*delete the file and run `npx --yes agate-gate@[\d.]+ handoff` again with --task/,
    );
  });

  it("writes to --path, else the base config's handoff.path, and never lists itself", () => {
    repo = branchRepo(`${CONFIG}handoff:\n  path: docs/HANDOFF.md\n`);
    expect(write({ task: "t" }).path).toBe("docs/HANDOFF.md");
    expect(read("docs/HANDOFF.md").front.changed_files).toEqual(["src/a.ts"]);
    expect(write({ task: "t", path: "./notes/h.md" }).path).toBe("notes/h.md");
    expect(read("notes/h.md").front.changed_files).toEqual(["docs/HANDOFF.md", "src/a.ts"]);
    expect(() => write({ task: "t", path: "../outside.md" })).toThrow(
      "must be a file path relative to the repository root",
    );
  });

  it("refuses an invalid base config unless --path says where, and a detached HEAD", () => {
    repo = branchRepo("version: 1\ncommands: nope\n");
    expect(() => write({ task: "t" })).toThrow(
      /\.github\/agate\.yml is not a valid agate config[\s\S]*fix it there, or pass --path/,
    );
    expect(write({ task: "t", path: HANDOFF }).path).toBe(HANDOFF);
    repo.git("checkout", "--quiet", "--detach");
    expect(() => write({ task: "t", path: HANDOFF })).toThrow(/^HEAD is detached/);
  });

  it("says when no base can be found", () => {
    repo = makeRepo("agate-handoff-");
    repo.git("checkout", "--quiet", "-b", "lonely");
    repo.commit({ "a.ts": "a\n" });
    expect(() => write({ task: "t" })).toThrow(/cannot find the default branch.*pass --base REF/);
  });
});

/**
 * The promise end to end, at the pure level: a handoff file made by `agate handoff` on a real
 * branch, committed, verifies clean against facts read from that repository's git state (as
 * GitHub would report them); a later code change makes it stale, and writing it again fixes that.
 */
describe("agate handoff → verifyHandoff on a real repository", () => {
  const rules = configSchema.parse({ version: 1, commands: [{ name: "t", run: "t" }] }).handoff
    .required_when;

  /** The pull request's files, as pulls/list-files reports them (renames detected). */
  function changedFiles(base: string): ChangedFile[] {
    const out = repo.git("diff", "--name-status", "-M", "-z", `${base}...HEAD`).split("\0");
    const files: ChangedFile[] = [];
    const words: Record<string, string> = { A: "added", M: "modified", D: "removed", T: "changed" };
    for (let i = 0; i < out.length - 1; ) {
      const code = out[i++] ?? "";
      if (code.startsWith("R")) {
        const previous = out[i++] ?? "";
        files.push({ filename: out[i++] ?? "", previous_filename: previous, status: "renamed" });
      } else {
        files.push({
          filename: out[i++] ?? "",
          previous_filename: null,
          status: words[code[0] ?? ""] ?? code,
        });
      }
    }
    return files;
  }

  function handoffFacts(base: string): HandoffFacts {
    const log = repo.git("log", "--reverse", "--format=%H%x00%B%x00", `${base}..HEAD`).split("\0");
    const commits = [];
    for (let i = 0; i + 1 < log.length; i += 2) {
      commits.push({ sha: (log[i] ?? "").trim(), message: log[i + 1] ?? "", committed_at: null });
    }
    let newest_change: HandoffFacts["newest_change"] = null;
    for (const commit of [...commits].reverse()) {
      const files = repo
        .git("diff-tree", "--no-commit-id", "--name-only", "-r", "-z", commit.sha)
        .split("\0")
        .filter(Boolean);
      if (files.length > 0) {
        newest_change = { sha: commit.sha, files };
        break;
      }
    }
    const blob = repo.git("rev-parse", `HEAD:${HANDOFF}`).trim();
    return {
      file: { path: HANDOFF, blob_sha: blob, text: repo.git("show", `HEAD:${HANDOFF}`) },
      observed_at: "2026-12-02T12:00:00Z",
      opened_at: "2026-12-01T12:00:00Z",
      commit_count: commits.length,
      changed_lines: 10,
      commits,
      newest_change,
    };
  }

  const verifyAtHead = async (base: string) => {
    // The record the gate would believe: commands run on exactly this head.
    const record = await agateRun(repo.dir);
    const facts = handoffFacts(base);
    return verifyHandoff({
      path: HANDOFF,
      requiredBy: handoffRequiredBy(rules, { labels: ["long-task"], facts }),
      facts,
      headRef: "agent/task",
      changedFiles: changedFiles(base),
      record,
    });
  };

  it("passes when written by agate handoff, goes stale after a code change, passes again", async () => {
    repo = branchRepo();
    const base = repo.git("merge-base", "HEAD", "main").trim();
    repo.git("mv", "src/old.ts", "src/renamed.ts");
    repo.commit({ "src/new.ts": "new\n" }, "rename and add\n\nAgent-Session: s-1");
    repo.write({ "src/wip.ts": "uncommitted\n" });

    await agateRun(repo.dir);
    writeHandoff({ cwd: repo.dir, task: "#12", status: "ready" });
    expect(read().front.changed_files).toEqual([
      "src/a.ts",
      "src/new.ts",
      "src/old.ts",
      "src/renamed.ts",
      "src/wip.ts",
    ]);
    repo.commit({}, "handoff\n\nAgent-Session: s-2");

    const clean = await verifyAtHead(base);
    expect(clean).toMatchObject({ valid: true, status: "ready", findings: [] });
    expect(clean.required_by).toEqual([
      "the label long-task (handoff.required_when.labels)",
      "2 agent sessions (more than 1: handoff.required_when.sessions_over, counted from Agent-Session: commit trailers)",
    ]);

    const codeChange = repo.commit({ "src/a.ts": "a3\n" }, "fix after the handoff");
    const stale = await verifyAtHead(base);
    expect(stale.findings).toEqual([
      `${HANDOFF} was updated before the newest code change (${codeChange.slice(0, 7)}): run \`${AGATE_CLI} handoff\` and commit it with or after the change`,
    ]);

    await agateRun(repo.dir);
    writeHandoff({ cwd: repo.dir });
    repo.commit({}, "handoff again");
    expect((await verifyAtHead(base)).findings).toEqual([]);
  });

  it("a file list that is false names the difference", async () => {
    repo = branchRepo();
    const base = repo.git("merge-base", "HEAD", "main").trim();
    await agateRun(repo.dir);
    writeHandoff({ cwd: repo.dir, task: "#12", status: "ready" });
    const file = join(repo.dir, HANDOFF);
    writeFileSync(file, readFileSync(file, "utf8").replace("  - src/a.ts\n", "  - src/other.ts\n"));
    repo.commit({}, "handoff");
    expect((await verifyAtHead(base)).findings).toEqual([
      "changed_files lacks `src/a.ts`, which the pull request changes (modified)",
      "changed_files lists `src/other.ts`, which the pull request does not change",
    ]);
  });
});
