import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exampleBundle } from "../../test/support/fake-llm-server.js";
import { itWithSandbox } from "../../test/support/sandbox.js";
import { SettingsError } from "../kit/env.js";
import { COMMAND_STDOUT_LIMIT } from "./command.js";
import { type CommandEvaluatorConfig, createJudge, type JudgeResult } from "./judge.js";
import { commandSandboxProblem } from "./sandbox.js";
import { loadEvaluatorSettings } from "./settings.js";

/**
 * The `command` evaluator for real: bash under bubblewrap, real scripts, real processes. The
 * scripts live in a temp dir that each test binds into the sandbox read-only through
 * AGATE_EVALUATOR_COMMAND_PATHS, as an operator lists the directory of the program they allow.
 * The judge's options come from an environment through the settings module, as in the App.
 * Where no sandbox can be made (no bubblewrap), the tests that need one are skipped and say why
 * (test/support/sandbox.ts); the refusals below run everywhere.
 */

const prompt = { system: "unused by the command kind", user: "unused" };
const verdictJson = JSON.stringify({
  complete: true,
  score: 0.9,
  missing: [],
  evidence: ["the flag is tested"],
});
/** What the sandbox sets; nothing else reaches the command unless the operator lists it. */
const SANDBOX_VARIABLES = ["HOME", "LANG", "LOGNAME", "PATH", "TMPDIR", "USER"];
/** What bash itself exports to the programs it runs. */
const BASH_VARIABLES = ["OLDPWD", "PWD", "SHLVL", "_"];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agate-command-judge-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a Node script into the temp dir; the config runs it with `node`. */
async function script(name: string, source: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, source);
  return `node ${JSON.stringify(path)}`;
}

/** Reads all of stdin, then runs `body` with the bundle parsed as `bundle`. */
const withBundle = (body: string) => `
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", async () => {
  const bundle = JSON.parse(input);
  ${body}
});
`;

function judge(
  run: string,
  env: Record<string, string | undefined> = {},
  timeout = 10_000,
): Promise<JudgeResult> {
  const config: CommandEvaluatorConfig = {
    kind: "command",
    run,
    timeout,
    min_score: 0.8,
    rubric: "",
  };
  const { judgeOptions } = loadEvaluatorSettings({
    PATH: process.env.PATH,
    AGATE_EVALUATOR_COMMAND_PATHS: dir,
    ...env,
  });
  return createJudge(config, { ...judgeOptions, killGraceMs: 200 }).judge({
    bundle: exampleBundle(),
    prompt,
  });
}

/** The problems the App's start reports for these evaluator settings. */
function startProblems(env: Record<string, string | undefined>): readonly string[] {
  try {
    loadEvaluatorSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  return [];
}

const sandboxOf = (env: Record<string, string | undefined>) =>
  loadEvaluatorSettings(env).judgeOptions.sandbox;

function verdictOf(result: JudgeResult) {
  if (result.outcome.status !== "verdict") throw new Error(JSON.stringify(result.outcome));
  return result.outcome.verdict;
}

/** Host processes whose command line contains `marker`. */
function hostProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      const zombie = /\) Z /.test(readFileSync(`/proc/${entry}/stat`, "utf8"));
      if (cmdline.includes(marker) && !zombie) found.push(Number(entry));
    } catch {
      // It ended meanwhile.
    }
  }
  return found;
}

describe("command evaluator", () => {
  itWithSandbox("takes the verdict a command prints, and records the run", async () => {
    const result = await judge(`echo '${verdictJson}'`);
    expect(result.outcome).toEqual({ status: "verdict", verdict: JSON.parse(verdictJson) });
    expect(result.run).toEqual({
      kind: "command",
      provider: null,
      model: null,
      prompt_version: exampleBundle().prompt_version,
      input_tokens: null,
      output_tokens: null,
      latency_ms: expect.any(Number),
      requests: 1,
    });
  });

  itWithSandbox("gives the command the bundle as JSON on stdin", async () => {
    const run = await script(
      "echo-bundle.mjs",
      withBundle(`
  console.log(JSON.stringify({
    complete: false,
    score: 0.1,
    missing: [bundle.task.title],
    evidence: [bundle.repository + "#" + bundle.pull_number, bundle.tree_sha, bundle.diff.files[0].filename],
  }));`),
    );
    const result = await judge(run);
    const bundle = exampleBundle();
    expect(result.outcome).toEqual({
      status: "verdict",
      verdict: {
        complete: false,
        score: 0.1,
        missing: [bundle.task.title],
        evidence: [`${bundle.repository}#${bundle.pull_number}`, bundle.tree_sha, "src/cli.ts"],
      },
    });
  });

  itWithSandbox(
    "runs again with previous_attempt after prose, and takes the verdict that follows",
    async () => {
      const run = await script(
        "learns.mjs",
        withBundle(`
  if (bundle.previous_attempt === null) console.log("The change looks complete to me.");
  else console.log(JSON.stringify({ complete: true, score: 1, missing: [], evidence: [JSON.stringify(bundle.previous_attempt)] }));`),
      );
      const result = await judge(run);
      // A first run that already had a previous_attempt would have answered at once.
      expect(result.run.requests).toBe(2);
      const [previous] = verdictOf(result).evidence;
      expect(JSON.parse(previous ?? "null")).toEqual({
        output: "The change looks complete to me.\n",
        error: expect.stringMatching(/^not JSON: Unexpected token/),
      });
    },
  );

  itWithSandbox("fails when the command prints prose twice", async () => {
    const result = await judge("echo 'All good, ship it.'");
    expect(result.run.requests).toBe(2);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringMatching(
        /^evaluator.run printed no valid verdict, malformed twice: not JSON/,
      ),
      fix: expect.stringContaining("print only the verdict JSON"),
    });
  });

  itWithSandbox(
    "fails on a non-zero exit with the exit code and the end of stderr, without a second run",
    async () => {
      const result = await judge("echo 'starting' >&2; echo 'model quota exhausted' >&2; exit 3");
      expect(result.run.requests).toBe(1);
      expect(result.outcome).toEqual({
        status: "failed",
        error: expect.stringMatching(
          /exited with code 3 in its sandbox; stderr ends:\nstarting\nmodel quota exhausted$/,
        ),
        fix: expect.stringContaining("exit 0"),
      });
    },
  );

  itWithSandbox("says where to list a program the sandbox does not show", async () => {
    const result = await judge("/opt/agate-no-such-judge/bin/judge --json");
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining("exited with code 127 in its sandbox"),
      fix: expect.stringContaining("AGATE_EVALUATOR_COMMAND_PATHS"),
    });
  });

  itWithSandbox(
    "kills the whole sandbox on a timeout, whatever the command started, and says which limit to raise",
    async () => {
      const marker = `${process.pid}.${Date.now() % 100_000}`;
      const result = await judge(`sleep ${marker} & setsid sleep ${marker} & wait`, {}, 500);
      expect(result.run.requests).toBe(1);
      expect(result.outcome).toEqual({
        status: "failed",
        error: expect.stringContaining("did not finish within 500 ms; its sandbox was killed"),
        fix: expect.stringContaining("raise evaluator.timeout"),
      });
      expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
    },
  );

  itWithSandbox(
    "leaves nothing running when the command exits and its children do not",
    async () => {
      const marker = `${process.pid}.${(Date.now() % 100_000) + 1}`;
      const result = await judge(`(setsid sleep ${marker} &); sleep 0.3; echo '${verdictJson}'`);
      expect(result.outcome.status).toBe("verdict");
      expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
    },
  );

  itWithSandbox("fails when stdout passes the limit instead of buffering it", async () => {
    const result = await judge(`head -c ${COMMAND_STDOUT_LIMIT + 4096} /dev/zero | tr '\\0' x`);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining(`more than ${COMMAND_STDOUT_LIMIT} bytes on stdout`),
      fix: expect.stringContaining("send logs to stderr"),
    });
  });

  itWithSandbox(
    "gives the command only the sandbox's variables and those the operator lists, never the App's secrets",
    async () => {
      const run = await script(
        "env.mjs",
        `import { readFileSync } from "node:fs";
const init = readFileSync("/proc/1/cmdline", "utf8").replaceAll("\\0", " ");
await new Promise((resolve) => setTimeout(resolve, 400));
console.log(JSON.stringify({ complete: true, score: 1, missing: [], evidence: [...Object.entries(process.env).map(([k, v]) => k + "=" + v).sort(), "init=" + init] }));`,
      );
      const running = judge(run, {
        HOME: "/home/agate",
        LANG: "de_DE.UTF-8",
        PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----",
        WEBHOOK_SECRET: "whsec",
        APP_ID: "123",
        OPENAI_API_KEY: "sk-1",
        AGATE_EVALUATOR_API_KEY: "sk-2",
        AGATE_EVALUATOR_API_KEY_URL: "https://api.openai.com/v1",
        AGATE_DATABASE_URL: "postgres://agate:pw@db/agate",
        GITHUB_TOKEN: "ghs_1",
        CLI_MODEL_KEY: "cli-key-1",
        AGATE_EVALUATOR_COMMAND_ENV: "CLI_MODEL_KEY, NOT_SET_ANYWHERE",
      });
      // While it runs, no command line on the host shows the passed key (ps shows them to all).
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(hostProcessesWith("cli-key-1")).toEqual([]);
      const result = await running;
      const evidence = verdictOf(result).evidence;
      const init = evidence.pop();
      expect(init).toMatch(/^init=\S*bwrap --args 7 -- bash /);
      expect(init).not.toContain("cli-key-1");
      const env = Object.fromEntries(
        evidence.map((line) => [
          line.slice(0, line.indexOf("=")),
          line.slice(line.indexOf("=") + 1),
        ]),
      );
      expect(
        Object.keys(env)
          .filter((name) => !BASH_VARIABLES.includes(name))
          .sort(),
      ).toEqual([...SANDBOX_VARIABLES, "CLI_MODEL_KEY"].sort());
      expect(env).toMatchObject({
        CLI_MODEL_KEY: "cli-key-1",
        HOME: "/evaluation",
        TMPDIR: "/tmp",
        LANG: "C.UTF-8",
      });
      expect(env.PATH?.split(":")).toContain(dir);
    },
  );

  itWithSandbox(
    "runs in /evaluation, a writable directory holding only bundle.json, the same bundle as on stdin",
    async () => {
      const run = await script(
        "cwd.mjs",
        withBundle(`
  const fs = await import("node:fs");
  const before = fs.readdirSync(".");
  const file = JSON.parse(fs.readFileSync("bundle.json", "utf8"));
  fs.writeFileSync("notes.txt", "scratch");
  fs.writeFileSync("/tmp/scratch.txt", "scratch");
  console.log(JSON.stringify({ complete: true, score: 1, missing: [], evidence: [process.cwd(), JSON.stringify(before), String(JSON.stringify(file) === JSON.stringify(bundle)), fs.readdirSync(".").join(",")] }));`),
      );
      const result = await judge(run);
      expect(verdictOf(result).evidence).toEqual([
        "/evaluation",
        '["bundle.json"]',
        "true",
        "bundle.json,notes.txt",
      ]);
    },
  );

  itWithSandbox(
    "shows the command nothing of the App: its processes, environment, working directory, .env, home, files and network",
    async () => {
      // The App: a working directory with a .env holding its key, the way app/main.ts reads it.
      const appDir = await mkdtemp(join(tmpdir(), "agate-app-"));
      await writeFile(join(appDir, ".env"), "PRIVATE_KEY=app-private-key-canary\n");
      let connections = 0;
      const server = createServer((_req, res) => res.end("reached the App's host"));
      server.on("connection", () => {
        connections += 1;
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      const thisFile = fileURLToPath(import.meta.url);
      const run = await script(
        "attack.mjs",
        withBundle(`
  const fs = await import("node:fs");
  const net = await import("node:net");
  const report = {};
  const attempt = (what, read) => {
    try {
      const got = read();
      report[what] = { ok: true, got: typeof got === "string" ? got.slice(0, 4000) : got };
    } catch (error) {
      report[what] = { ok: false, error: String(error.code ?? error.message) };
    }
  };
  // Every ancestor, as $PPID, $PPID's parent and so on would give them.
  const ancestors = [];
  for (let pid = process.ppid; pid > 0 && ancestors.length < 10; ) {
    ancestors.push(pid);
    try {
      pid = Number(/^PPid:\\s+(\\d+)/m.exec(fs.readFileSync("/proc/" + pid + "/status", "utf8"))[1]);
    } catch { break; }
  }
  report.ancestors = ancestors;
  for (const pid of new Set([...ancestors, 1])) {
    attempt("environ of " + pid, () => fs.readFileSync("/proc/" + pid + "/environ", "utf8"));
    attempt(".env in cwd of " + pid, () => fs.readFileSync("/proc/" + pid + "/cwd/.env", "utf8"));
  }
  const processes = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\\d+$/.test(entry)) continue;
    try { processes.push(fs.readFileSync("/proc/" + entry + "/cmdline", "utf8").replaceAll("\\0", " ").trim()); }
    catch { processes.push("(unreadable)"); }
  }
  report.processes = processes;
  attempt("the App's working directory", () => fs.readdirSync(${JSON.stringify(appDir)}));
  attempt("the App's .env", () => fs.readFileSync(${JSON.stringify(join(appDir, ".env"))}, "utf8"));
  attempt("the App's HOME", () => fs.readdirSync(${JSON.stringify(homedir())}));
  attempt("/root", () => fs.readdirSync("/root"));
  attempt("/work", () => fs.readdirSync("/work"));
  attempt("the App's code", () => fs.readFileSync(${JSON.stringify(thisFile)}, "utf8"));
  attempt("the App's code directory", () => fs.readdirSync(${JSON.stringify(dirname(thisFile))}));
  report.network = await new Promise((resolve) => {
    const socket = net.connect(${port}, "127.0.0.1");
    socket.setTimeout(3000, () => { socket.destroy(); resolve({ ok: false, error: "timeout" }); });
    socket.on("connect", () => { socket.destroy(); resolve({ ok: true }); });
    socket.on("error", (error) => resolve({ ok: false, error: error.code }));
  });
  let fromFile = "(no bundle.json)";
  try { fromFile = JSON.parse(fs.readFileSync("bundle.json", "utf8")).head_sha; } catch {}
  console.log(JSON.stringify({ complete: true, score: 1, missing: [], evidence: [bundle.head_sha, fromFile, JSON.stringify(report)] }));`),
      );

      const previous = process.cwd();
      let result: JudgeResult;
      try {
        process.chdir(appDir);
        result = await judge(run, {
          PRIVATE_KEY: "app-private-key-canary",
          WEBHOOK_SECRET: "app-webhook-secret-canary",
        });
      } finally {
        process.chdir(previous);
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await rm(appDir, { recursive: true, force: true });
      }

      const [fromStdin, fromFile, reportJson] = verdictOf(result).evidence;
      type Attempt = { ok: boolean; got?: unknown; error?: string };
      const report = JSON.parse(reportJson ?? "{}") as Record<string, Attempt> & {
        ancestors: number[];
        processes: string[];
        network: Attempt;
      };

      // No process of the App's is there: only the sandbox's init (bwrap), bash and the script.
      expect(report.processes.length).toBeLessThanOrEqual(3);
      for (const cmdline of report.processes) {
        expect(cmdline).toMatch(/^(\S*\/bwrap |bash --norc |node \S*attack\.mjs)/);
      }
      // $PPID and every ancestor, and pid 1: an environment holds nothing but the sandbox's own
      // variables (bwrap is started with none), and no working directory has the App's .env.
      expect(report.ancestors.length).toBeGreaterThan(0);
      for (const pid of new Set([...report.ancestors, 1])) {
        const environ = report[`environ of ${pid}`];
        if (environ?.ok) {
          const names = String(environ.got)
            .split("\0")
            .filter((entry) => entry !== "")
            .map((entry) => entry.slice(0, entry.indexOf("=")));
          for (const name of names) {
            expect([...SANDBOX_VARIABLES, ...BASH_VARIABLES]).toContain(name);
          }
        }
        expect(report[`.env in cwd of ${pid}`]).toMatchObject({ ok: false });
      }
      for (const what of [
        "the App's working directory",
        "the App's .env",
        "the App's HOME",
        "/root",
        "/work",
        "the App's code",
        "the App's code directory",
      ]) {
        expect({ what, ...report[what] }).toMatchObject({ what, ok: false, error: "ENOENT" });
      }
      expect(report.network).toEqual({ ok: false, error: "ECONNREFUSED" });
      expect(connections).toBe(0);
      expect(reportJson).not.toContain("canary");
      // And it still did its job: read the bundle on stdin and in bundle.json, printed a verdict.
      expect(fromStdin).toBe(exampleBundle().head_sha);
      expect(fromFile).toBe(exampleBundle().head_sha);
    },
  );

  itWithSandbox("reaches the network only when the operator allows it", async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end("ok"));
    server.on("connection", () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const run = await script(
      "fetch.mjs",
      `const text = await fetch("http://127.0.0.1:${port}/").then((r) => r.text(), (e) => String(e.cause?.code ?? e));
console.log(JSON.stringify({ complete: true, score: 1, missing: [], evidence: [text] }));`,
    );
    try {
      expect(verdictOf(await judge(run)).evidence).toEqual(["ECONNREFUSED"]);
      expect(connections).toBe(0);
      const allowed = await judge(run, { AGATE_EVALUATOR_COMMAND_NETWORK: "allow" });
      expect(verdictOf(allowed).evidence).toEqual(["ok"]);
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("refuses to run without a sandbox, and says how to get one", async () => {
    const marker = join(dir, "ran");
    const result = await judge(`touch ${marker}; echo '${verdictJson}'`, {
      AGATE_EVALUATOR_BWRAP: "/nonexistent/bin/bwrap",
    });
    expect(result.run.requests).toBe(0);
    expect(result.outcome).toEqual({
      status: "failed",
      error:
        "the command evaluator runs only in a sandbox, and there is none on the App's host: AGATE_EVALUATOR_BWRAP is /nonexistent/bin/bwrap, which is not an executable file",
      fix: expect.stringContaining("apt-get install bubblewrap"),
    });
    if (result.outcome.status === "failed") {
      expect(result.outcome.fix).toContain("unprivileged user namespaces");
    }
    expect(() => readFileSync(marker)).toThrow();
  });

  it("refuses to run when bwrap cannot make the sandbox, with bwrap's reason", async () => {
    // An executable that is no bubblewrap fails the probe like a bwrap that the host denies.
    const fake = join(dir, "bwrap");
    await writeFile(
      fake,
      "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n",
      {
        mode: 0o755,
      },
    );
    const result = await judge(`echo '${verdictJson}'`, { AGATE_EVALUATOR_BWRAP: fake });
    expect(result.run.requests).toBe(0);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining("No permissions to create new namespace"),
      fix: expect.stringContaining("apt-get install bubblewrap"),
    });
  });

  it("refuses invalid sandbox settings instead of guessing: the App does not start on them", async () => {
    const settings = {
      PATH: process.env.PATH,
      AGATE_EVALUATOR_COMMAND_PATHS: dir,
      AGATE_EVALUATOR_COMMAND_ENV: "PRIVATE_KEY",
      AGATE_EVALUATOR_COMMAND_NETWORK: "yes",
    };
    expect(() => judge(`echo '${verdictJson}'`, settings)).toThrow(SettingsError);
    expect(startProblems(settings).join("; ")).toMatch(
      /AGATE_EVALUATOR_COMMAND_NETWORK is "yes".*AGATE_EVALUATOR_COMMAND_ENV names PRIVATE_KEY/,
    );
  });

  itWithSandbox("refuses to bind a directory that holds the App's working directory", async () => {
    // An App working in <dir>/app, wherever the checkout is (its parent may be /tmp itself).
    const app = join(mkdtempSync(join(tmpdir(), "agate-app-")), "app");
    mkdirSync(app);
    const before = process.cwd();
    process.chdir(app);
    try {
      const result = await judge(`echo '${verdictJson}'`, {
        AGATE_EVALUATOR_COMMAND_PATHS: dirname(app),
      });
      expect(result.run.requests).toBe(0);
      expect(result.outcome).toEqual({
        status: "failed",
        error: expect.stringContaining("which holds the App's working directory"),
        fix: expect.stringContaining("lists only the directory of the evaluator's program"),
      });
    } finally {
      process.chdir(before);
    }
  });

  itWithSandbox("tells the App at start whether the command kind can run here", async () => {
    expect(await commandSandboxProblem(sandboxOf({ PATH: process.env.PATH }))).toBeNull();
    expect(
      await commandSandboxProblem(
        sandboxOf({ PATH: "/nonexistent", AGATE_EVALUATOR_COMMAND_PATHS: dir }),
      ),
    ).toEqual({
      error: expect.stringContaining("bubblewrap (bwrap) is not on the App's PATH"),
      fix: expect.stringContaining("apt-get install bubblewrap"),
    });
    expect(startProblems({ AGATE_EVALUATOR_COMMAND_NETWORK: "yes" })).toEqual([
      expect.stringContaining("AGATE_EVALUATOR_COMMAND_NETWORK"),
    ]);
  });

  itWithSandbox(
    "takes from the App's environment only what the sandbox needs, at start",
    async () => {
      const env: Record<string, string | undefined> = {
        PATH: process.env.PATH,
        AGATE_EVALUATOR_COMMAND_PATHS: dir,
        AGATE_EVALUATOR_COMMAND_ENV: "CLI_MODEL_KEY",
        CLI_MODEL_KEY: "cli-key-1",
      };
      const { judgeOptions } = loadEvaluatorSettings(env);
      expect(judgeOptions.sandbox).toMatchObject({
        searchPath: process.env.PATH,
        passEnv: { CLI_MODEL_KEY: "cli-key-1" },
      });
      // A later change to the environment reaches no command: the value was captured at start.
      env.CLI_MODEL_KEY = "changed";
      const run = await script(
        "key.mjs",
        `console.log(JSON.stringify({ complete: true, score: 1, missing: [], evidence: [String(process.env.CLI_MODEL_KEY)] }));`,
      );
      const result = await createJudge(
        { kind: "command", run, timeout: 10_000, min_score: 0.8, rubric: "" },
        { ...judgeOptions, killGraceMs: 200 },
      ).judge({ bundle: exampleBundle(), prompt });
      expect(verdictOf(result).evidence).toEqual(["cli-key-1"]);
      // Without a PATH in the App's environment, bwrap is looked up in the system's directories.
      expect(sandboxOf({}).searchPath).toBe(
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      );
    },
  );
});
