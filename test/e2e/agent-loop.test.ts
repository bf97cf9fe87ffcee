/**
 * Issue 31's "done when": an agent process driven by the generic loop (`agate-gate loop`), the
 * App deciding on the simulator with CI running the real Action bundle, goes from waiting to
 * rejected with the failing command's output in its hands, fixes, pushes, and reaches accepted,
 * reading only the status JSON (never the check run's Markdown).
 *
 * The failure is one only CI sees, as `jest --ci` refuses to write a missing snapshot: the
 * repository's test needs a snapshot file under CI=true, so the loop's local `run` passes and the
 * App's verdict is what tells the agent. The agent pushes to a relay repository; the test plays
 * GitHub receiving that push (the branch moves, `synchronize`, CI runs on the new head).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readStatusBlock } from "../../checks/gate/status-block.js";
import { useGateHarness } from "../support/gate-harness.js";

const CLI = fileURLToPath(new URL("../../action/cli/bin.ts", import.meta.url));
const AGENT = fileURLToPath(new URL("../support/loop-agent.ts", import.meta.url));
const TSX = fileURLToPath(import.meta.resolve("tsx"));
const REPO = "widgets";
const BRANCH = "codex/answer";
const CONFIG = "version: 1\ncommands:\n  - name: test\n    run: bash test.sh\n";
const TEST_SH = `answer=$(cat answer.txt)
if [ "$answer" != 42 ]; then echo "expected 42 in answer.txt, got $answer"; exit 1; fi
if [ "$CI" = true ] && [ ! -f snapshots/answer.snap ]; then
  echo "FAIL answer.test: snapshot snapshots/answer.snap is missing, and CI never writes one"
  exit 1
fi
echo "answer.test passed"
`;

const gate = useGateHarness();

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

interface Run {
  head: string;
  number: number;
  work: string;
  log: string;
  env: Record<string, string>;
}

/** The pull request (its first head lacks the snapshot), and the agent's checkout of it. */
async function setUp(): Promise<Run & { relay: string }> {
  const { sim } = gate;
  const { head, number } = await gate.agentPullRequest(
    REPO,
    { "answer.txt": "42\n" },
    { config: CONFIG, baseFiles: { "test.sh": TEST_SH }, branch: BRANCH },
  );
  const dir = mkdtempSync(join(gate.temp, "agent-"));
  const work = join(dir, "work");
  const relay = join(dir, "relay.git");
  git(dir, "clone", "-q", "-b", BRANCH, sim.gitDir({ repo: REPO }), work);
  git(dir, "init", "-q", "--bare", relay);
  git(work, "remote", "set-url", "--push", "origin", relay);
  const log = join(dir, "agent.jsonl");
  const home = join(dir, "home");
  mkdirSync(home);
  writeFileSync(log, "");
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    GITHUB_TOKEN: sim.createToken({ permissions: { checks: "read", pull_requests: "read" } }),
    GITHUB_API_URL: sim.apiUrl,
    GITHUB_REPOSITORY: `${sim.owner}/${REPO}`,
    AGATE_APP_SLUG: sim.appSlug,
    AGATE_STATUS_POLL_MS: "200",
    AGENT_LOG: log,
    CLI,
    TSX,
    AGENT,
  };
  return { head, number, work, relay, log, env };
}

/**
 * Runs the agent's process to its end while playing GitHub and CI around it: CI on the first
 * head, then each push to the relay taken in (the branch moves, `synchronize`) and CI run on it.
 */
async function drive(
  run: Run & { relay: string },
  command: string,
  args: string[],
  /** Run CI on the first head once the output shows this (the agent's first look). */
  firstLook?: RegExp,
): Promise<{ code: number | null; output: string; heads: string[] }> {
  const { sim } = gate;
  const child = spawn(command, args, {
    cwd: run.work,
    env: run.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  let done = false;
  void exited.then(() => {
    done = true;
  });
  for (const until = Date.now() + 60_000; firstLook && !firstLook.test(output); ) {
    if (done || Date.now() > until) throw new Error(`no first look:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await gate.ci(REPO, BRANCH, run.head);
  const heads = [run.head];
  const ref = join(run.relay, "refs", "heads", BRANCH);
  while (!done) {
    const pushed = existsSync(ref) ? readFileSync(ref, "utf8").trim() : undefined;
    if (pushed && pushed !== heads.at(-1)) {
      git(
        sim.gitDir({ repo: REPO }),
        "fetch",
        "-q",
        run.relay,
        `+refs/heads/${BRANCH}:refs/relay/${BRANCH}`,
      );
      await sim.world.moveBranch(
        sim.repository({ repo: REPO }),
        BRANCH,
        pushed,
        heads.at(-1),
        sim.world.account("codex[bot]", "Bot"),
      );
      await gate.processDeliveries();
      heads.push(pushed);
      await gate.ci(REPO, BRANCH, pushed);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { code: await exited, output, heads };
}

function turnsOf(log: string) {
  return readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

/** What GitHub shows in the end: the App's check on the last head accepted it, its block too. */
function expectAccepted(heads: string[], number: number): void {
  expect(heads).toHaveLength(2);
  const check = gate.gateCheck(REPO, heads.at(-1) ?? "");
  expect(check?.conclusion).toBe("success");
  const block = readStatusBlock(check?.output?.summary ?? "");
  expect(block.ok && [block.status.state, block.status.pull_request]).toEqual(["accepted", number]);
}

describe("an agent in a loop against the App", () => {
  it("agate-gate loop: waiting → rejected (the failing output in its hands) → fixes, pushes → accepted", async () => {
    const run = await setUp();
    const { code, output, heads } = await drive(
      run,
      process.execPath,
      [
        "--import",
        TSX,
        CLI,
        "loop",
        "--wait",
        "2m",
        "--max-turns",
        "3",
        "--",
        process.execPath,
        "--import",
        TSX,
        AGENT,
      ],
      /^agate loop: waiting on /m,
    );
    expect(code, output).toBe(0);
    // The loop's own words, in order: waiting, the rejection, the agent's turn, the push, accepted.
    // Right after the push it may look before the App has seen it and say `stale` (the check of
    // the old head) once: whether it does depends on how fast the App is, so that line is left out.
    const said = output
      .split("\n")
      .filter((l) => l.startsWith("agate loop:") && !l.startsWith("agate loop: stale on "))
      .map((l) => l.replace(/ on [0-9a-f]{7}\b.*$/, "").replace(/pushed [0-9a-f]{7} .*/, "pushed"));
    expect(said).toEqual([
      "agate loop: waiting",
      "agate loop: rejected",
      "agate loop: turn 1: running the agent",
      "agate loop: pushed",
      "agate loop: waiting",
      "agate loop: accepted",
      "agate loop: agate: accepted",
    ]);
    // The agent saw the rejection as data, with the failing command's own words, and fixed it.
    const turns = turnsOf(run.log);
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      turn: 1,
      via: "json",
      state: "rejected",
      head: run.head,
      did: ["wrote snapshots/answer.snap"],
      work_has_markdown_tables: false,
    });
    expect(turns[0].outputs[0]).toContain("snapshot snapshots/answer.snap is missing");
    expectAccepted(heads, run.number);
  }, 240_000);

  it("the five lines of the README and docs/agents.md, as written", async () => {
    const block = (text: string) =>
      [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
        .map((m) => m[1] ?? "")
        .find((b) => b.startsWith("next=$(npx --yes agate-gate"));
    const readme = block(readFileSync(new URL("../../README.md", import.meta.url), "utf8"));
    const docs = block(readFileSync(new URL("../../docs/agents.md", import.meta.url), "utf8"));
    expect(readme?.trimEnd().split("\n")).toHaveLength(5);
    expect(docs).toBe(readme);
    const run = await setUp();
    // npx runs this checkout's CLI (the package is not published yet); your-agent is the agent.
    const script = `npx() { [ "$1" = --yes ] && shift; shift; node --import "$TSX" "$CLI" "$@"; }
your-agent() { node --import "$TSX" "$AGENT" "$1"; }
${readme}`;
    const { code, output, heads } = await drive(run, "bash", ["-c", script]);
    expect(code, output).toBe(0);
    expect(output).toMatch(/^agate: accepted on [0-9a-f]{7} \(#\d+\)/m);
    const turns = turnsOf(run.log);
    expect(turns).toMatchObject([{ via: "text", did: ["wrote snapshots/answer.snap"] }]);
    expect(turns[0].outputs[0]).toContain("snapshot snapshots/answer.snap is missing");
    expectAccepted(heads, run.number);
  }, 240_000);
});
