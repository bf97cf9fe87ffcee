/**
 * The contract's acceptance test (seed 003, issue 13): two agent processes that know nothing of
 * each other, neither calling the other, both touching only GitHub (the simulator) through the
 * CLI, and the App running as in production. Agent A's task has two halves; half 2 needs a fact
 * only agent B's notes hold. Entry 1 is answerable (open → claimed → resolved, and A finishes
 * half 2 with the answer); entry 2 is not (open → claimed → blocked after one follow-up).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../app/store/sqlite-store.js";
import type { GitHubSimulator } from "../github/index.js";
import { agentEnv, startEntriesWorld } from "../support/entries-app.js";

const run = promisify(execFile);
const AGENT = fileURLToPath(new URL("../support/entries-agent.ts", import.meta.url));
const TSX = fileURLToPath(import.meta.resolve("tsx"));
const SECRET = "entries-acceptance-secret";
// A maintainer is configured, so a notification would be visible: there must be none.
const CONFIG =
  'version: 1\ncommands:\n  - name: test\n    run: "true"\nescalation:\n  maintainers: [octocat]\n';
const FACT = "5433";

let world: Awaited<ReturnType<typeof startEntriesWorld>>;
let sim: GitHubSimulator;
const temp = mkdtempSync(join(tmpdir(), "agate-acceptance-"));

beforeAll(async () => {
  world = await startEntriesWorld(SECRET);
  sim = world.sim;
});
afterAll(async () => {
  await world?.close();
  rmSync(temp, { recursive: true, force: true });
});

function agent(role: "a" | "b", login: string, workspace: string) {
  return run(process.execPath, ["--import", TSX, AGENT], {
    env: {
      PATH: process.env.PATH ?? "",
      ...agentEnv(sim, login, "widgets"),
      AGENT_ROLE: role,
      AGENT_WORKSPACE: workspace,
    },
    timeout: 240_000,
  });
}

describe("the handoff acceptance test", () => {
  it("A asks, B finds the entry by polling and answers in the issue, A finishes half 2 with it; entry 2 ends blocked; no maintainer is notified", async () => {
    await sim.createRepository({ repo: "widgets", files: { ".github/agate.yml": CONFIG } });
    const a = mkdtempSync(join(temp, "a-"));
    const b = mkdtempSync(join(temp, "b-"));
    writeFileSync(join(a, "task.json"), JSON.stringify({ numbers: [3, 4, 5] }));
    writeFileSync(
      join(b, "knowledge.json"),
      JSON.stringify({ "staging database port": FACT, "ci runner": "ubuntu-24.04" }),
    );
    // A's question is real: the fact is nowhere A can look (its workspace, its environment).
    expect(readFileSync(join(a, "task.json"), "utf8")).not.toContain(FACT);

    // The start: both agents at once; after this the test only waits (no intervention).
    const [outA, outB] = await Promise.all([agent("a", "agent-a", a), agent("b", "agent-b", b)]);
    const resultA = JSON.parse(outA.stdout.trim().split("\n").at(-1) ?? "{}");
    const resultB = JSON.parse(outB.stdout.trim().split("\n").at(-1) ?? "{}");

    expect(resultA.log).toContain("own search for the staging port: not found");
    // Half 1 alone, half 2 with the answer: the fact is in A's output, not just "an answer".
    expect(readFileSync(join(a, "half1.txt"), "utf8")).toBe("sum=12\n");
    expect(readFileSync(join(a, "half2.txt"), "utf8")).toBe(
      `DATABASE_URL=postgres://staging-db.internal:${FACT}/widgets\n`,
    );
    const [one, two] = resultA.entries as [number, number];
    // B found both entries by polling: nothing told it their numbers.
    expect(resultB.log.filter((l: string) => l.startsWith("polled:")).join()).toContain(`#${one}`);
    expect(resultB.handled).toEqual({ [one]: "answered", [two]: "follow-ups exhausted" });

    // The answer is in the issue, from B, as the owner's /answer.
    const repo = sim.repository({ repo: "widgets" });
    const issue1 = sim.world.issue(repo, one);
    expect(
      issue1.comments.some(
        (c) => c.user.login === "agent-b" && c.body.startsWith("/answer") && c.body.includes(FACT),
      ),
    ).toBe(true);
    expect(issue1).toMatchObject({ state: "closed", stateReason: "completed" });
    expect([...issue1.labels].sort()).toEqual(["agate:background", "agate:resolved"]);

    const issue2 = sim.world.issue(repo, two);
    expect([...issue2.labels].sort()).toEqual(["agate:background", "agate:blocked"]);
    expect(resultA.entry2).toBe("blocked");
    expect(issue2.comments.filter((c) => c.body.startsWith("/ask"))).toHaveLength(2);

    // The history, from the App's own database.
    const store = SqliteStore.open(join(world.app.dir, "agate.db"));
    const kinds = async (n: number) =>
      (await store.listEntryEvents({ repository: `${sim.owner}/widgets`, issueNumber: n })).map(
        (e) => `${e.kind}:${e.to_state}`,
      );
    expect(await kinds(one)).toEqual(["opened:open", "claimed:claimed", "answered:resolved"]);
    expect(await kinds(two)).toEqual([
      "opened:open",
      "claimed:claimed",
      "asked:claimed",
      "blocked:blocked",
    ]);
    await store.close();

    // Maintainer notifications in the whole run: 0 (no mention of the configured maintainer).
    const everything = [...repo.issues.values()].flatMap((i) => i.comments.map((c) => c.body));
    expect(everything.filter((body) => body.includes("@octocat"))).toEqual([]);
  }, 300_000);
});
