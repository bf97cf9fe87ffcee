/**
 * `agate-gate entry`: against the simulator over HTTP with the real App running, each agent's
 * calls made with its own token. Setup errors are checked first, with no network.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type GitHubSimulator, startGitHubSimulator } from "../../test/github/index.js";
import { agentEnv, startEntriesApp } from "../../test/support/entries-app.js";
import { entryMain } from "./entry.js";

const SECRET = "entries-cli-secret";
const CONFIG = 'version: 1\ncommands:\n  - name: test\n    run: "true"\n';

async function cli(argv: string[], env: Record<string, string | undefined>) {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await entryMain(argv, env, {
    log: (line) => lines.push(line),
    error: (line) => errors.push(line),
  });
  return { code, out: lines.join("\n"), err: errors.join("\n") };
}

describe("entry: setup and usage errors say what to fix", () => {
  it("no token, no repository, a missing field, a bad number: exit 2", async () => {
    expect(await cli(["poll"], {})).toMatchObject({
      code: 2,
      err: expect.stringContaining("set AGATE_GITHUB_TOKEN, GITHUB_TOKEN or GH_TOKEN"),
    });
    expect(await cli(["poll"], { GITHUB_TOKEN: "t" })).toMatchObject({
      code: 2,
      err: expect.stringContaining("pass --repo OWNER/NAME or set GITHUB_REPOSITORY"),
    });
    const env = {
      GITHUB_TOKEN: "t",
      GITHUB_REPOSITORY: "o/r",
      GITHUB_API_URL: "http://127.0.0.1:9",
    };
    expect(await cli(["open", "--project", "p", "--question", "q"], env)).toMatchObject({
      code: 2,
      err: expect.stringContaining("missing or empty: --tried, --needed"),
    });
    // `ask` is the comment /ask, a follow-up: opening an entry with it points to `open`.
    expect(await cli(["ask", "--project", "p", "--question", "q"], env)).toMatchObject({
      code: 2,
      err: expect.stringContaining("to open an entry, use 'entry open --project P"),
    });
    expect(await cli(["claim", "x"], env)).toMatchObject({
      code: 2,
      err: expect.stringContaining("needs the entry's issue number"),
    });
    expect(await cli(["answer", "3"], env)).toMatchObject({
      code: 2,
      err: expect.stringContaining("needs the answer after the number"),
    });
    // The error and where the usage is, not the usage itself.
    expect(await cli(["frobnicate"], env)).toEqual({
      code: 2,
      out: "",
      err: "agate entry: unknown entry command 'frobnicate'; the commands are open, poll, claim, answer, ask, reply, status\nrun agate-gate entry help for usage",
    });
    expect(await cli(["poll", "--wait", "soon"], env)).toMatchObject({
      code: 2,
      err: expect.stringContaining("not a duration"),
    });
  });

  it("takes GH_TOKEN as doctor and validate do, and says 'cannot reach' for a GitHub that does not answer", async () => {
    // Port 9 (discard) is closed here: no answer at all, which is not GitHub's HTTP 500.
    const env = { GH_TOKEN: "t", GITHUB_REPOSITORY: "o/r", GITHUB_API_URL: "http://127.0.0.1:9" };
    const result = await cli(["poll"], env);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /^agate entry: cannot reach 127\.0\.0\.1:9: .*; check GITHUB_API_URL \(default https:\/\/api\.github\.com\) and the network$/,
    );
    expect(result.err).not.toContain("500");
  });
});

describe("entry: against GitHub with the App running", () => {
  let sim: GitHubSimulator;
  let app: Awaited<ReturnType<typeof startEntriesApp>>;
  beforeAll(async () => {
    sim = await startGitHubSimulator({ webhookSecret: SECRET });
    app = await startEntriesApp(sim, SECRET);
  });
  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });
  // A repository of its own per test: the App's database outlives the simulator's reset, and a
  // new repository of the same name would reuse its issue numbers.
  let repo = "";
  let tests = 0;
  beforeEach(async () => {
    sim.reset();
    sim.setWebhookUrl(`${app.agate.url}/api/github/webhooks`);
    repo = `w${++tests}`;
    await sim.createRepository({ repo, files: { ".github/agate.yml": CONFIG } });
  });

  it("open, poll, claim (a second is refused naming the owner), answer, status with the answer", async () => {
    const a = agentEnv(sim, "agent-a", repo);
    const b = agentEnv(sim, "agent-b", repo);
    const c = agentEnv(sim, "agent-c", repo);
    const asked = await cli(
      [
        "open",
        "--project",
        "w",
        "--question",
        "Which port?",
        "--tried",
        "README",
        "--needed",
        "a number",
        "--json",
      ],
      a,
    );
    expect(asked).toMatchObject({ code: 0 });
    const { number } = JSON.parse(asked.out) as { number: number };
    const polled = await cli(["poll", "--json"], b);
    expect(JSON.parse(polled.out)).toEqual([
      expect.objectContaining({
        number,
        author: "agent-a",
        question: "Which port?",
        tried: "README",
      }),
    ]);
    expect(await cli(["claim", String(number)], b)).toMatchObject({
      code: 0,
      out: expect.stringContaining(`#${number} claimed`),
    });
    expect(JSON.parse((await cli(["poll", "--json"], c)).out)).toEqual([]);
    expect(await cli(["claim", String(number)], c)).toMatchObject({
      code: 1,
      err: expect.stringContaining("`agent-b` owns this entry"),
    });
    const all = JSON.parse((await cli(["status", "--json"], c)).out);
    expect(all).toEqual([expect.objectContaining({ number, state: "claimed", owner: "agent-b" })]);
    expect(await cli(["answer", String(number), "5433"], b)).toMatchObject({ code: 0 });
    const status = await cli(["status", String(number), "--wait", "10s", "--json"], a);
    expect(JSON.parse(status.out)).toMatchObject({
      number,
      state: "resolved",
      owner: "agent-b",
      answer: "5433",
    });
  });

  it("ask (a follow-up) and reply: the owner's second follow-up blocks the entry; status --wait ends there", async () => {
    const a = agentEnv(sim, "agent-a", repo);
    const b = agentEnv(sim, "agent-b", repo);
    const { number } = JSON.parse(
      (
        await cli(
          ["open", "--project", "w", "--question", "q?", "--tried", "t", "--needed", "n", "--json"],
          a,
        )
      ).out,
    ) as { number: number };
    await cli(["claim", String(number)], b);
    expect(await cli(["ask", String(number), "Which region?"], b)).toMatchObject({ code: 0 });
    expect(await cli(["reply", String(number), "I do not know."], a)).toMatchObject({ code: 0 });
    expect(await cli(["ask", String(number), "Who would?"], b)).toMatchObject({
      code: 0,
      out: expect.stringContaining("blocked"),
    });
    const status = JSON.parse(
      (await cli(["status", String(number), "--wait", "5s", "--json"], a)).out,
    );
    expect(status).toMatchObject({ state: "blocked", owner: null, follow_ups: ["Which region?"] });
  });

  it("a token that cannot write issues is named as the problem", async () => {
    const env = {
      ...agentEnv(sim, "agent-a", repo),
      GITHUB_TOKEN: sim.createToken({ actor: "agent-a", permissions: { metadata: "read" } }),
    };
    const result = await cli(
      ["open", "--project", "w", "--question", "q", "--tried", "t", "--needed", "n"],
      env,
    );
    expect(result).toMatchObject({ code: 2, err: expect.stringContaining("issues: write") });
  });
});
