/**
 * npm run demo:entries — handoff entries end to end: the App (Probot, the durable webhook path,
 * workers) on a SQLite file in a temp folder, the GitHub simulator, and two agents that know
 * nothing of each other, each running the real `agate-gate entry` CLI with its own token. It
 * prints what a person would see (the CLI's words, agate's comments, the triage dashboard) and
 * exits 0 only when every step came out as expected. No network, no credentials.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { DASHBOARD_MARKER } from "../checks/dashboard/render.js";
import { startGitHubSimulator } from "../test/github/index.js";
import { agentEnv, startEntriesApp } from "../test/support/entries-app.js";
import { BILLING_COMMIT_QUESTION } from "../test/support/entry-questions.js";
import { settle as settleApp } from "../test/support/settle.js";

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, "..", "action", "cli", "bin.ts");
const TSX = import.meta.resolve("tsx");
const REPO = "widgets";
const SECRET = "demo-entries-secret";
const MAINTAINER = "mo-maintainer";
const CONFIG = `version: 1\ncommands:\n  - name: test\n    run: "true"\nescalation:\n  maintainers: [${MAINTAINER}]\n`;
const failures: string[] = [];

const sim = await startGitHubSimulator({ webhookSecret: SECRET });
const app = await startEntriesApp(sim, SECRET);
const settle = () => settleApp(sim, app.agate);
const temp = mkdtempSync(join(tmpdir(), "agate-demo-entries-"));

function step(title: string) {
  console.log(`\n▶ ${title}`);
}
function expectThat(ok: boolean, what: string) {
  console.log(`  ${ok ? "✓" : "✗"} ${what}`);
  if (!ok) failures.push(what);
}
const indent = (text: string, by = "    ") =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => `${by}${line}`)
    .join("\n");

/** One agent's CLI call, a process of its own with only its token: prints it and its output. */
async function agent(login: string, ...args: string[]): Promise<{ code: number; out: string }> {
  console.log(
    `  $ ${login}: agate-gate entry ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}`,
  );
  let result: { code: number; out: string };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", TSX, CLI, "entry", ...args],
      {
        cwd: temp,
        env: { PATH: process.env.PATH ?? "", ...agentEnv(sim, login, REPO) },
        timeout: 120_000,
      },
    );
    result = { code: 0, out: `${stdout}${stderr}`.trim() };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    result = {
      code: typeof e.code === "number" ? e.code : 1,
      out: `${e.stdout ?? ""}${e.stderr ?? ""}`.trim(),
    };
  }
  if (result.out) console.log(indent(result.out, "    │ "));
  await settle();
  return result;
}

/** A comment typed on GitHub by a person (or an agent in its browser), not through the CLI. */
async function typed(login: string, number: number, body: string) {
  console.log(`  ${login} comments on #${number}: ${body}`);
  await sim.addIssueComment({ repo: REPO, number, body, user: login });
  await settle();
}

const issue = (n: number) => sim.world.issue(sim.repository({ repo: REPO }), n);
const bot = `${sim.appSlug}[bot]`;
const agateSaid = (n: number) =>
  issue(n)
    .comments.filter((c) => c.user.login === bot)
    .map((c) => c.body);
const numberIn = (text: string) => Number(/#(\d+)/.exec(text)?.[1] ?? Number.NaN);
function dashboard() {
  return [...sim.repository({ repo: REPO }).issues.values()].find(
    (i) => i.user.login === bot && (i.body ?? "").includes(DASHBOARD_MARKER),
  );
}
/** The dashboard issue; `brief`: its headings and lines only, without the hints under them. */
function showDashboard(brief = false) {
  const d = dashboard();
  if (!d) {
    console.log("    (no dashboard issue)");
    return "";
  }
  const body = d.body ?? "";
  const text = brief
    ? body
        .split("\n")
        .filter((line) => /^(##|- |None\.)/.test(line))
        .join("\n")
    : body.replace(DASHBOARD_MARKER, "");
  console.log(`    ┌ #${d.number} ${d.title} (opened by ${d.user.login})`);
  console.log(indent(text.replace(/\n{3,}/g, "\n\n"), "    │ "));
  return body;
}

try {
  await sim.createRepository({ repo: REPO, files: { ".github/agate.yml": CONFIG } });
  console.log(
    `agate ${app.agate.url} · GitHub simulator ${sim.apiUrl} · repository ${sim.owner}/${REPO}`,
  );
  console.log(`escalation.maintainers: [${MAINTAINER}] (the only people agate may ever notify)`);

  step("Entry 1: agent-a is stuck on a fact it cannot reach, and asks");
  const ask1 = await agent(
    "agent-a",
    "open",
    "--project",
    "widgets",
    "--question",
    "Which port does the staging database listen on?",
    "--tried",
    "Searched the repository and my environment: nothing names the staging port.",
    "--needed",
    "The port number, to write the staging DATABASE_URL.",
  );
  const one = numberIn(ask1.out);
  expectThat(ask1.code === 0 && Number.isInteger(one), `entry #${one} opened`);

  step("agent-b, which knows nothing of agent-a, polls for open entries, claims and answers");
  const poll = await agent("agent-b", "poll");
  expectThat(poll.out.includes(`#${one}`), `agent-b found #${one} by polling`);
  const claim1 = await agent("agent-b", "claim", String(one));
  expectThat(claim1.code === 0, "agent-b owns it");
  const answer1 = await agent("agent-b", "answer", String(one), "5433, per the ops runbook.");
  expectThat(answer1.code === 0, "agent-b answered in the issue");

  step("agent-a reads the answer and goes on");
  const status1 = await agent("agent-a", "status", String(one));
  expectThat(
    /resolved/.test(status1.out) && status1.out.includes("5433"),
    "resolved, with 5433 in it",
  );
  console.log(`  agent-a writes DATABASE_URL=postgres://staging-db.internal:5433/widgets`);

  step("Entry 2: a question nobody can answer ends blocked after one follow-up, no ping-pong");
  const ask2 = await agent("agent-a", "open", "--project", "billing", ...BILLING_COMMIT_QUESTION);
  const two = numberIn(ask2.out);
  await agent("agent-b", "claim", String(two));
  await agent("agent-b", "ask", String(two), "Where is the legacy billing repository?");
  await agent("agent-a", "reply", String(two), "I only know its name, legacy-billing.");
  await agent("agent-b", "ask", String(two), "Do you have a copy of its history anywhere?");
  const status2 = await agent("agent-a", "status", String(two));
  expectThat(/blocked/.test(status2.out), `#${two} is blocked (parked, nobody notified)`);

  step("Entry 3: a decision about money, which only a maintainer may take");
  const ask3 = await agent(
    "agent-a",
    "open",
    "--project",
    "widgets",
    "--question",
    "May the load tests run on the paid CI plan?",
    "--tried",
    "The free runners time out after 6 hours; the load tests need 9.",
    "--needed",
    "A yes or no on paying for the larger runners.",
  );
  const three = numberIn(ask3.out);
  await typed("agent-a", three, "/escalate money the larger runners cost money every month");
  const escalation = agateSaid(three).at(-1) ?? "";
  console.log(indent(escalation.replace(/<!--.*?-->/gs, "").trim(), "    │ agate: "));
  expectThat(escalation.includes(`@${MAINTAINER}`), `the escalation mentions @${MAINTAINER}, once`);

  step("The triage dashboard, as a maintainer sees it");
  const before = showDashboard();
  expectThat(before.includes(`#${three} `), `#${three} is under escalated entries`);
  expectThat(before.includes(`#${two} `), `#${two} is parked under blocked entries`);
  expectThat(!before.includes(`#${one} `), `#${one} (resolved) is not listed`);

  step("The maintainer decides on the entry; it leaves the dashboard");
  await typed(MAINTAINER, three, "/answer Yes: use the larger runners for the load tests only.");
  const after = showDashboard(true);
  const needs = after.slice(0, after.indexOf("## Parked"));
  expectThat(!needs.includes(`#${three} `), `#${three} is no longer listed as needing a human`);
  expectThat(issue(three).state === "closed", `#${three} is resolved and closed`);
  const status3 = await agent("agent-a", "status", String(three));
  expectThat(
    /resolved/.test(status3.out) && status3.out.includes("larger runners"),
    "agent-a reads the maintainer's decision and goes on",
  );

  step("What reached a person");
  const mentions = [one, two, three].flatMap((n) =>
    agateSaid(n).flatMap((body) =>
      [...body.replace(/`+[^`]*`+/g, "").matchAll(/@[\w-]+/g)].map((m) => m[0]),
    ),
  );
  console.log(`  maintainer notifications: ${mentions.length} (${mentions.join(", ") || "none"})`);
  expectThat(
    mentions.length === 1 && mentions[0] === `@${MAINTAINER}`,
    "one notification, for the money decision; none for the answered or the blocked entry",
  );
} catch (error) {
  failures.push((error as Error).message);
  console.log(`  ✗ ${(error as Error).stack ?? error}`);
} finally {
  await app.close();
  await sim.close();
  rmSync(temp, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.log(`\n✗ demo:entries: ${failures.length} step(s) did not come out as expected:`);
  for (const f of failures) console.log(`  - ${f}`);
  process.exit(1);
}
console.log("\n✓ demo:entries: every step came out as expected.");
