import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AGATE_CLI, CLI_PACKAGE, compatibleReleases } from "../../checks/handoff/verify.js";
import { commandRecordSchema } from "../../schemas/command-record.js";
import { progressReportSchema } from "../../schemas/trace.js";
import { GIT_ENV, makeRepo, type TestRepo } from "../../test/support/git-repo.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
const CLI = join(ROOT, "dist", "cli", "index.js");
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
};
const agate = (repo: TestRepo, ...args: string[]) =>
  spawnSync(CLI, args, {
    cwd: repo.dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, ...GIT_ENV },
  });

let repo: TestRepo;
afterEach(() => repo?.remove());

describe("agate run (dist/cli/index.js), with no credentials", () => {
  it("runs the base config's commands, prints a table, writes the record under .git", () => {
    repo = makeRepo();
    repo.commit({
      ".github/agate.yml":
        "version: 1\ncommands:\n  - name: greet\n    run: echo hi\n  - name: check\n    run: test -f done.txt\n",
    });
    repo.git("checkout", "--quiet", "-b", "agent/task");
    repo.commit({
      "done.txt": "yes\n",
      ".github/agate.yml": "version: 1\ncommands:\n  - name: greet\n    run: 'true'\n",
    });

    const result = agate(repo, "run");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /command\s+result\s+duration\ngreet\s+✓ passed\s+\d+(\.\d)? m?s\ncheck\s+✓ passed/,
    );
    expect(result.stdout).toContain("agate: 2 of 2 required commands passed on");
    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(join(repo.dir, ".git", "agate", "command-record.json"), "utf8")),
    );
    expect(record.workflow).toBeNull();
    expect(record.tested.sha).toBe(repo.git("rev-parse", "HEAD").trim());
  });

  it("exits 1 when a command fails, 2 on a config error, and --base picks the base", () => {
    repo = makeRepo();
    const good = repo.commit({
      ".github/agate.yml": "version: 1\ncommands:\n  - { name: f, run: exit 3 }\n",
    });
    repo.commit({ ".github/agate.yml": "version: 1\ncommands: oops\n" });
    const failed = agate(repo, "run", "--base", good);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain("f        ✗ failed (exit 3)");
    const broken = agate(repo, "run", "--base", "HEAD");
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain('commands at line 2, column 11: expected a list, got "oops"');
  });

  it("works in the shadow git dir under .git/agate while commands run, names each command's changes, leaves no shadow", () => {
    repo = makeRepo();
    repo.commit({
      ".github/agate.yml":
        "version: 1\ncommands:\n  - name: shadow\n    run: test -f .git/agate/shadow-git/HEAD\n  - name: build\n    run: echo out > built.txt\n",
      ".gitignore": "ignored.txt\n",
    });
    // A file the person ignores everywhere (their global ignore file) is not a change either.
    const home = join(repo.dir, ".git", "home");
    mkdirSync(join(home, ".config", "git"), { recursive: true });
    writeFileSync(join(home, ".config", "git", "ignore"), ".idea/\n");
    repo.write({ ".idea/workspace.xml": "<x/>\n" });
    const result = spawnSync(CLI, ["run"], {
      cwd: repo.dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, ...GIT_ENV, HOME: home },
    });
    // build wrote a file it may not (no commands[].writes): the gate refuses such a record, and
    // run fails the same way, naming it, though every command exited 0.
    expect(result.status, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toContain("agate: 2 of 2 required commands passed on");
    expect(result.stdout).toContain(
      "agate: the App would refuse this record: command build changed `built.txt`, outside what it may write (commands[].writes): it did not test the commit as it is. List what it writes",
    );
    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(join(repo.dir, ".git", "agate", "command-record.json"), "utf8")),
    );
    expect(record.commands.map((c) => [c.name, c.exit_code, c.changed_paths])).toEqual([
      ["shadow", 0, []],
      ["build", 0, ["built.txt"]],
    ]);
    expect(record.tested).toMatchObject({ clean_before: true, clean: false });
    expect(existsSync(join(repo.dir, ".git", "agate", "shadow-git"))).toBe(false);
  });

  it("a command that writes only what its commands[].writes allows passes, as the gate believes it", () => {
    repo = makeRepo();
    repo.commit({
      ".github/agate.yml":
        "version: 1\ncommands:\n  - name: build\n    run: echo out > built.txt\n    writes: [built.txt]\n",
    });
    const result = agate(repo, "run");
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).not.toContain("would refuse");
  });

  it("says before the commands that an edited config is not the one that runs, and how to run it", () => {
    repo = makeRepo();
    repo.commit({ ".github/agate.yml": "version: 1\ncommands:\n  - { name: a, run: 'true' }\n" });
    repo.write({ ".github/agate.yml": "version: 1\ncommands:\n  - { name: b, run: 'false' }\n" });
    const result = agate(repo, "run");
    expect(result.stderr).toContain(
      `agate: note: .github/agate.yml differs from the one at the base commit ${repo.git("rev-parse", "--short=7", "HEAD").trim()} (it has uncommitted edits), and agate runs the base's, as the gate does: an edit applies once it is merged. To run yours now, commit it and run ${CLI_PACKAGE} run --base HEAD.`,
    );
    // Uncommitted work is the person's own, not "an earlier step"'s, and the record is of HEAD.
    expect(result.stderr).toContain(
      "warning: the work tree has uncommitted changes (1 path(s), such as .github/agate.yml): the commands run on them",
    );
    expect(result.stderr).not.toContain("an earlier step");
    expect(result.stdout).toContain("passed on");
    expect(result.stdout).toContain("on uncommitted changes (see the warning above)");
    expect(result.stdout).toMatch(/\na\s+✓ passed/);
  });

  it("trace reads an agent's trace through the CLI: a report, --json, and a malformed line named", () => {
    repo = makeRepo();
    const fixture = join(ROOT, "test", "fixtures", "traces", "codex.jsonl");
    const report = agate(repo, "trace", fixture);
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toContain("codex");
    const json = agate(repo, "trace", fixture, "--json");
    expect(json.status).toBe(0);
    expect(progressReportSchema.parse(JSON.parse(json.stdout)).format).toBe("codex");
    const [first] = readFileSync(fixture, "utf8").split("\n");
    writeFileSync(join(repo.dir, "bad.jsonl"), `${first}\nnot json\n`);
    const bad = agate(repo, "trace", "bad.jsonl");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/line 2/);
  });

  it("an unknown command or option is named in agate's words, with a pointer to --help, exit 2", () => {
    repo = makeRepo();
    // The error and where the usage is: not forty lines of usage that scroll the error away.
    const hint = `run ${CLI_PACKAGE} --help for usage\n`;
    const unknown = agate(repo, "frobnicate");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(
      `agate: unknown command 'frobnicate'; the commands are run, handoff, validate, doctor, trace, entry, status, hook, loop, help\n${hint}`,
    );
    const none = agate(repo);
    expect(none.status).toBe(2);
    expect(none.stderr).toBe(
      `agate: no command given; the commands are run, handoff, validate, doctor, trace, entry, status, hook, loop, help\n${hint}`,
    );

    const bogus = agate(repo, "run", "--bogus");
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toBe(
      `agate: unknown option '--bogus' for 'run'; its options are --base, --config, --record, --help\n${hint}`,
    );
    expect(bogus.stdout).toBe("");
    // Not Node's parser, which talks about positionals to someone who mistyped a flag.
    expect(bogus.stderr).not.toContain("positional");
    expect(agate(repo, "run", "--confg", "x.yml").stderr).toMatch(
      /^agate: unknown option '--confg' for 'run' \(did you mean --config\?\)/,
    );
    expect(agate(repo, "validate", "-x").stderr).toMatch(
      /^agate: unknown option '-x' for 'validate'/,
    );
    expect(agate(repo, "doctor", "--ap", "agate").stderr).toMatch(
      /^agate: unknown option '--ap' for 'doctor' \(did you mean --app\?\)/,
    );
    expect(agate(repo, "--bogus").stderr).toMatch(
      /^agate: unknown option '--bogus' for 'agate-gate'/,
    );
    const noValue = agate(repo, "handoff", "--task");
    expect(noValue.status).toBe(2);
    expect(noValue.stderr).toMatch(/^agate: option '--task' of 'handoff' needs a value\n/);
    expect(agate(repo, "run", "--help=yes").stderr).toMatch(
      /^agate: option '--help' of 'run' takes no value\n/,
    );
    const extra = agate(repo, "run", "everything");
    expect(extra.status).toBe(2);
    expect(extra.stderr).toBe(
      `agate: run takes no arguments, only options; got the argument 'everything'\n${hint}`,
    );
    expect(agate(repo, "validate", "a.yml", "b.yml").stderr).toBe(
      `agate: validate takes at most one FILE; got a second argument 'b.yml'\n${hint}`,
    );
    expect(agate(repo, "validate", "a.yml", "b.yml", "c.yml").stderr).toMatch(
      /^agate: validate takes at most one FILE; got more arguments 'b\.yml' 'c\.yml'\n/,
    );
  });

  it("--version prints the version, --help and help the usage, exit 0", () => {
    repo = makeRepo();
    const version = agate(repo, "--version");
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(PACKAGE.version);
    for (const args of [["--help"], ["help"], ["run", "--help"], ["validate", "-h"]]) {
      const help = agate(repo, ...args);
      expect(help.status, args.join(" ")).toBe(0);
      expect(help.stdout).toContain(`${CLI_PACKAGE} validate [FILE]`);
    }
  });
});

describe("agate run without a config at the base commit", () => {
  const CONFIG = "version: 1\ncommands:\n  - name: unit\n    run: 'true'\n";
  const recordFile = () => join(repo.dir, ".git", "agate", "command-record.json");

  it("nothing anywhere: the repository has not adopted agate, nothing to run, exit 0", () => {
    repo = makeRepo();
    repo.commit({ "README.md": "hi\n" });
    const result = agate(repo, "run");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^agate: the base commit [0-9a-f]{7} has no \.github\/agate\.yml; nothing to run\.\n$/,
    );
    expect(existsSync(recordFile())).toBe(false);
  });

  it("a --config path that is nowhere exits 2 and names the path", () => {
    repo = makeRepo();
    repo.commit({ ".github/agate.yml": CONFIG });
    const result = agate(repo, "run", "--config", "ci/agate.yml");
    expect(result.status).toBe(2);
    expect(result.stdout).not.toContain("nothing to run");
    expect(result.stderr).toMatch(
      /^agate: --config ci\/agate\.yml: there is no such file at the base commit [0-9a-f]{7} nor in the work tree; check the path \(relative to the repository root\), or leave out --config for \.github\/agate\.yml\n$/,
    );
    expect(existsSync(recordFile())).toBe(false);
  });

  it("a config only in the work tree (not committed) exits 2 and says to commit it", () => {
    repo = makeRepo();
    repo.commit({ "README.md": "hi\n" });
    repo.write({ ".github/agate.yml": CONFIG, "ci/agate.yml": CONFIG });
    const implicit = agate(repo, "run");
    expect(implicit.status).toBe(2);
    expect(implicit.stderr).toMatch(
      /^agate: \.github\/agate\.yml is in the work tree but not committed, and agate reads the config at the base commit [0-9a-f]{7}: commit it .*Check it first: agate-gate validate \.github\/agate\.yml\n$/,
    );
    const named = agate(repo, "run", "--config", "ci/agate.yml");
    expect(named.status).toBe(2);
    expect(named.stderr).toMatch(
      /^agate: --config ci\/agate\.yml: ci\/agate\.yml is in the work tree but not committed/,
    );
  });

  it("a config this branch commits: exit 0 by default (as in CI), exit 2 when named; --base HEAD runs it", () => {
    repo = makeRepo();
    repo.commit({ "README.md": "hi\n" });
    repo.git("checkout", "--quiet", "-b", "adopt-agate");
    repo.commit({ ".github/agate.yml": CONFIG });
    const implicit = agate(repo, "run");
    expect(implicit.status, implicit.stderr).toBe(0);
    expect(implicit.stdout).toMatch(
      /^agate: the base commit [0-9a-f]{7} has no \.github\/agate\.yml; this branch commits it, .*To run it now: agate-gate run --base HEAD\. Nothing to run\.\n$/,
    );
    const named = agate(repo, "run", "--config", ".github/agate.yml");
    expect(named.status).toBe(2);
    expect(named.stderr).toContain("agate: --config .github/agate.yml: the base commit");
    expect(named.stderr).toContain(
      "To run it now: agate-gate run --base HEAD --config .github/agate.yml",
    );
    const now = agate(repo, "run", "--base", "HEAD");
    expect(now.status, now.stderr).toBe(0);
    expect(now.stdout).toContain("agate: 1 of 1 required commands passed on");
  });
});

describe("agate run's hint for exit 141", () => {
  it("names SIGPIPE and pipefail for a command that exited 141, and only for it", () => {
    repo = makeRepo();
    repo.commit({
      ".github/agate.yml":
        "version: 1\ncommands:\n  - name: first-line\n    run: yes | head -n 1\n  - name: plain\n    run: exit 3\n",
    });
    const result = agate(repo, "run");
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/first-line\s+✗ failed \(exit 141\)/);
    const hints = result.stdout.split("\n").filter((line) => line.startsWith("hint:"));
    expect(hints).toEqual([
      "hint: first-line exited 141, which is 128 + SIGPIPE: a program in a pipeline wrote after its reader had stopped (as in `yes | head` or `cmd | grep -q x`), and agate runs commands with bash -o pipefail, so that fails the command. Let the reader read everything, or don't pipe into one that stops early.",
    ]);
  });
});

describe("agate validate [FILE]: the work tree's config and handoff file", () => {
  it("says OK in one line for a valid config, and reads the work tree, not a commit", () => {
    repo = makeRepo();
    repo.commit({ "README.md": "hi\n" });
    repo.write({
      ".github/agate.yml":
        "version: 1\ncommands:\n  - { name: unit, run: npm test }\n  - { name: lint, run: npm run lint }\n",
    });
    const result = agate(repo, "validate");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(
      /^agate: OK: \.github\/agate\.yml is a valid agate config \(2 required commands, digest [0-9a-f]{12}\); no handoff file at \.agate\/handoff\.md\.\n$/,
    );
  });

  it("prints every config problem with field, line, column and 'did you mean', exit 1", () => {
    repo = makeRepo();
    repo.write({
      ".github/agate.yml": "version: 1\ncomands:\n  - { name: unit, run: npm test }\n",
    });
    const result = agate(repo, "validate");
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(".github/agate.yml is not a valid agate config (2 problems):");
    expect(result.stderr).toContain(
      "  - comands at line 2, column 1: unknown key; did you mean commands?",
    );
    expect(result.stderr).toContain("  - commands at line 1, column 1: is missing");
  });

  it("checks FILE and the handoff file at its handoff.path; a bad handoff file alone fails", () => {
    repo = makeRepo();
    repo.write({
      "ci/gate.yml":
        "version: 1\ncommands:\n  - { name: unit, run: npm test }\nhandoff:\n  path: notes/handoff.md\n",
      "notes/handoff.md": "---\ntask: t\nstatus: finished\n---\n",
      // Not the configured path: not looked at.
      ".agate/handoff.md": "no front matter\n",
    });
    const bad = agate(repo, "validate", "ci/gate.yml");
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("notes/handoff.md is not a valid handoff file (3 problems):");
    expect(bad.stderr).toContain(
      '  - notes/handoff.md:3:9: status: "finished" is not one of in-progress, ready, blocked',
    );
    expect(bad.stderr).not.toContain(".agate/handoff.md");

    // Well-formed, but what the gate finds in the file alone: ready with an open item, and no
    // last_command.
    repo.write({
      "notes/handoff.md":
        "---\ntask: t\nbranch: main\nstatus: ready\nchanged_files: [src/a.ts]\nopen_items: [docs]\n---\n",
    });
    const contradictory = agate(repo, "validate", "ci/gate.yml");
    expect(contradictory.status).toBe(1);
    expect(contradictory.stderr).toBe(
      `notes/handoff.md is well-formed, but the gate would reject it (2 problems):\n  - last_command is missing: run \`${AGATE_CLI} run\`, then \`${AGATE_CLI} handoff\`, to record the last command and its exit code\n  - status is ready, but 1 open item remains: a finished task has neither; clear them or set status: in-progress\n`,
    );

    repo.write({
      "notes/handoff.md":
        "---\ntask: t\nbranch: main\nstatus: in-progress\nchanged_files: [src/a.ts]\nlast_command: { run: npm test, exit_code: 1 }\n---\n",
    });
    const good = agate(repo, "validate", "ci/gate.yml");
    expect(good.status, good.stderr).toBe(0);
    expect(good.stdout).toMatch(
      /^agate: OK: ci\/gate\.yml is a valid agate config \(1 required command, digest [0-9a-f]{12}\); notes\/handoff\.md is a valid handoff file\.\n$/,
    );
  });

  it("exits 2 when there is no file to check, naming it", () => {
    repo = makeRepo();
    const none = agate(repo, "validate");
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^agate: there is no \.github\/agate\.yml here \(.*\): write one/);
    const named = agate(repo, "validate", "ci/missing.yml");
    expect(named.status).toBe(2);
    expect(named.stderr).toBe(
      `agate: there is no file ci/missing.yml (${join(realpathSync(repo.dir), "ci", "missing.yml")})\n`,
    );
  });
});

describe("the package people install: agate-gate", () => {
  it("its bin is the CLI bundle with a shebang (packed alone: test/cli-package.test.ts)", () => {
    expect(readFileSync(CLI, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(statSync(CLI).mode & 0o111).not.toBe(0);
  });

  it("instructions name it at the releases compatible with this version", () => {
    expect(compatibleReleases("0.1.0")).toBe("0.1");
    expect(compatibleReleases("0.12.4")).toBe("0.12");
    expect(compatibleReleases("1.2.3")).toBe("1");
    expect(compatibleReleases("2.0.0-rc.1")).toBe("2.0.0-rc.1");
    expect(AGATE_CLI).toBe(`npx --yes agate-gate@${compatibleReleases(PACKAGE.version)}`);
  });

  it("README, docs and AGENTS.md never tell anyone to run `npx agate` (a stranger's package)", () => {
    for (const file of [
      "README.md",
      "AGENTS.md",
      ...readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
        .filter((f) => /\.(md|ya?ml)$/.test(f))
        .map((f) => `docs/${f}`),
    ]) {
      const text = readFileSync(join(ROOT, file), "utf8");
      expect(text.match(/npx (--yes )?agate(?![-\w])/g), file).toBeNull();
      for (const [spec] of text.matchAll(/npx --yes agate-gate@\S+/g)) {
        expect(spec, file).toBe(AGATE_CLI);
      }
    }
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(`${AGATE_CLI} run`);
    expect(readme).toContain(`${AGATE_CLI} handoff`);
    expect(readme).toContain(`${AGATE_CLI} validate`);
    expect(readFileSync(join(ROOT, "docs", "handoff.md"), "utf8")).toContain(
      `${AGATE_CLI} handoff`,
    );
  });
});

describe("agate handoff (dist/cli/index.js)", () => {
  it("writes the file from agate run's record, keeps what was written, exits 2 on what to fix", () => {
    repo = makeRepo();
    repo.commit({
      ".github/agate.yml": "version: 1\ncommands:\n  - name: unit\n    run: 'true'\n",
    });
    repo.git("checkout", "--quiet", "-b", "agent/task");
    repo.commit({ "src/a.ts": "a\n" });

    const noTask = agate(repo, "handoff");
    expect(noTask.status).toBe(2);
    expect(noTask.stderr).toContain("there is no .agate/handoff.md yet: pass --task");

    expect(agate(repo, "run").status).toBe(0);
    const first = agate(repo, "handoff", "--task", "#12", "--open-item", "a", "--open-item", "b");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain(
      "agate: .agate/handoff.md written: status in-progress, 1 changed file, last_command `true` (exit 0).",
    );
    const text = readFileSync(join(repo.dir, ".agate", "handoff.md"), "utf8");
    expect(text).toMatch(
      /^---\ntask: "#12"\nbranch: agent\/task\nstatus: in-progress\nchanged_files:\n {2}- src\/a\.ts\nlast_command:\n {2}run: "true"\n {2}exit_code: 0\n/,
    );
    expect(text).toContain("open_items:\n  - a\n  - b\n---\n");

    const again = agate(repo, "handoff", "--status", "ready", "--open-item", "");
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain("updated: status ready");
    expect(readFileSync(join(repo.dir, ".agate", "handoff.md"), "utf8")).toContain('task: "#12"');

    const bad = agate(repo, "handoff", "--status", "done");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--status "done" is not one of in-progress, ready, blocked');
    const unknown = agate(repo, "handoff", "--colour");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^agate: unknown option '--colour' for 'handoff'.*\n.*--help/);
    expect(unknown.stderr).not.toContain("Usage:");
    expect(agate(repo, "handoff", "--help").stdout).toContain("agate-gate handoff [--base REF]");
  });
});
