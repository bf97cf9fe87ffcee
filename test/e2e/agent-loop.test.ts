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

const CLI = fileURLToPath(new URL("../../action/cli-entry.ts", import.meta.url));
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

describe("an agent in the generic loop against the App", () => {
  it("waiting → rejected (the failing output in its hands) → fixes, pushes → accepted", async () => {
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

    const loop = spawn(
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
      {
        cwd: work,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          GITHUB_TOKEN: sim.createToken({
            permissions: { checks: "read", pull_requests: "read" },
          }),
          GITHUB_API_URL: sim.apiUrl,
          GITHUB_REPOSITORY: `${sim.owner}/${REPO}`,
          AGATE_APP_SLUG: sim.appSlug,
          AGATE_STATUS_POLL_MS: "200",
          AGENT_LOG: log,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    loop.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    loop.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => loop.on("close", resolve));
    let done = false;
    void exited.then(() => {
      done = true;
    });

    // CI on the pull request's first head, as GitHub runs the evidence workflow.
    await gate.ci(REPO, BRANCH, head);
    // GitHub receiving the agent's pushes: the branch moves, CI runs on the new head.
    const heads = [head];
    while (!done) {
      const pushed = existsSync(join(relay, "refs", "heads", BRANCH))
        ? readFileSync(join(relay, "refs", "heads", BRANCH), "utf8").trim()
        : undefined;
      if (pushed && pushed !== heads.at(-1)) {
        const simDir = sim.gitDir({ repo: REPO });
        git(simDir, "fetch", "-q", relay, `+refs/heads/${BRANCH}:refs/relay/${BRANCH}`);
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
    const code = await exited;
    expect(code, output).toBe(0);

    // The loop's own words, in order: waiting, the rejection, the agent's turn, the push, accepted.
    const said = output
      .split("\n")
      .filter((l) => l.startsWith("agate loop:"))
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
    const turns = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      turn: 1,
      state: "rejected",
      head,
      did: ["wrote snapshots/answer.snap"],
      work_has_markdown_tables: false,
    });
    expect(turns[0].outputs[0]).toContain("snapshot snapshots/answer.snap is missing");
    // What GitHub shows: the App's check on the new head accepted it, its block saying so.
    const last = heads.at(-1) ?? "";
    expect(heads).toHaveLength(2);
    const check = gate.gateCheck(REPO, last);
    expect(check?.conclusion).toBe("success");
    const block = readStatusBlock(check?.output?.summary ?? "");
    expect(block.ok && [block.status.state, block.status.pull_request]).toEqual([
      "accepted",
      number,
    ]);
  }, 240_000);
});
