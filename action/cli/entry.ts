/**
 * `agate-gate entry …`: handoff entries for agents, through the GitHub API alone (a token from
 * the environment). Commands are comments the agate App acts on; after posting one, the CLI
 * waits for the App's reply to it (the marker in agate's replies names the comment it answers)
 * and says what it was, so an agent knows whether it owns an entry or why it was refused.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { parseEntryForm, renderEntryForm } from "../../checks/entries/form.js";
import { entryStatus, parseReplyMarker, type ReplyMarker } from "../../checks/entries/marker.js";
import { noAnswer, noAnswerText } from "../../checks/github-answers.js";
import { CLI_PACKAGE } from "../../checks/handoff/verify.js";
import { type Repo, repoOf } from "../../github/call.js";
import { tokenClient } from "../../github/client.js";
import * as issues from "../../github/issues.js";
import { parseDuration } from "../../schemas/duration.js";

export const ENTRY_USAGE = `Handoff entries (docs/entries.md), through the GitHub API:

  entry open --project P --question Q --tried T --needed N [--pull NUMBER] [--title T]
      Opens an entry (an issue in the entry form's layout) and waits for agate to open it.
  entry poll [--project P] [--wait DURATION]
      Lists open, unclaimed entries (number, question, tried, needed); --wait waits until
      there is one.
  entry claim NUMBER          becomes the entry's one owner (or says who owns it)
  entry answer NUMBER TEXT    the owner's answer: resolves and closes the entry
  entry ask NUMBER TEXT       the owner's follow-up question to the author (one at most): /ask
  entry reply NUMBER TEXT     a plain comment: the author answering a follow-up
  entry status [NUMBER] [--wait DURATION]
      One entry's state, owner and answer (--wait: until it is resolved, blocked or
      escalated), or every open entry and who holds it. While it waits it says so on the entry
      (a comment /wait 10m, renewed by editing it), which makes the entry agate:blocking while an
      agent waits on it; an agent that dies stops counting ten minutes after its last renewal.
      Only the entry's author's /wait counts.

Options of every entry command: --repo OWNER/NAME (default GITHUB_REPOSITORY), --json,
--no-wait (do not wait for agate's reply), --timeout DURATION (for agate's reply, default 2m).
Environment: AGATE_GITHUB_TOKEN, GITHUB_TOKEN or GH_TOKEN (a token that can write issues),
GITHUB_API_URL (default https://api.github.com), AGATE_APP_LOGIN (the App's bot, whose replies
are believed; default agate[bot]). Exit status: 0 done, 1 agate refused it or the wait ran
out, 2 a usage or setup error.`;

type Env = Record<string, string | undefined>;

/** A mistake the user fixes: printed with what to do, exit status 2. */
class EntryUsageError extends Error {}
/** agate said no, or the time ran out: exit status 1. */
class EntryRefusedError extends Error {}

const OPTIONS = {
  repo: { type: "string" },
  json: { type: "boolean" },
  "no-wait": { type: "boolean" },
  timeout: { type: "string" },
  wait: { type: "string" },
  project: { type: "string" },
  question: { type: "string" },
  tried: { type: "string" },
  needed: { type: "string" },
  pull: { type: "string" },
  title: { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies NonNullable<ParseArgsConfig["options"]>;

interface Output {
  log: (line: string) => void;
  error: (line: string) => void;
}

export async function entryMain(
  argv: string[],
  env: Env = process.env,
  out: Output = { log: console.log, error: console.error },
): Promise<number> {
  try {
    const parsed = (() => {
      try {
        return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
      } catch (error) {
        throw new EntryUsageError((error as Error).message);
      }
    })();
    const [command, ...args] = parsed.positionals;
    if (parsed.values.help || command === undefined || command === "help") {
      out.log(ENTRY_USAGE);
      return command === undefined && !parsed.values.help ? 2 : 0;
    }
    const client = EntryClient.fromEnv(env, parsed.values.repo);
    const ctx = { client, values: parsed.values, args, out, env };
    const run = COMMANDS[command];
    if (!run) {
      throw new EntryUsageError(
        `unknown entry command '${command}'; the commands are ${Object.keys(COMMANDS).join(", ")}`,
      );
    }
    await run(ctx);
    return 0;
  } catch (error) {
    if (error instanceof EntryUsageError) {
      // The usage is twenty lines: printed after the error, it would scroll it away.
      out.error(`agate entry: ${error.message}\nrun ${CLI_PACKAGE} entry help for usage`);
      return 2;
    }
    if (error instanceof EntryRefusedError) {
      out.error(`agate entry: ${error.message}`);
      return 1;
    }
    // No answer at all (DNS, a refused connection, a timeout) is not GitHub's HTTP 500: said as
    // doctor says it.
    const unreached = noAnswer(error);
    if (unreached) {
      out.error(
        `agate entry: ${noAnswerText(unreached)}; check GITHUB_API_URL (default https://api.github.com) and the network`,
      );
      return 2;
    }
    const status = (error as { status?: number }).status;
    if (status !== undefined) {
      out.error(`agate entry: ${githubProblem(status, (error as Error).message)}`);
      return 2;
    }
    throw error;
  }
}

function githubProblem(status: number, message: string): string {
  switch (status) {
    case 401:
      return `GitHub refused the token (401: ${message}): set AGATE_GITHUB_TOKEN, GITHUB_TOKEN or GH_TOKEN to a valid token`;
    case 403:
      return `GitHub forbade it (403: ${message}): the token needs issues: write on the repository`;
    case 404:
      return `GitHub found no such repository or issue (404: ${message}): check --repo (or GITHUB_REPOSITORY) and the number, and that the token can see the repository`;
    default:
      return `GitHub answered ${status}: ${message}`;
  }
}

interface Ctx {
  client: EntryClient;
  values: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
  >["values"];
  args: string[];
  out: Output;
  env: Env;
}

/** Each command is named as the comment it posts (`ask` is `/ask`); `open` opens an entry. */
const COMMANDS: Record<string, (ctx: Ctx) => Promise<void>> = {
  open,
  poll,
  claim: (ctx) => command(ctx, "claim", () => "/claim"),
  answer: (ctx) => command(ctx, "answer", (text) => `/answer ${text}`, "the answer"),
  ask: (ctx) => {
    // `entry ask --question …` opened an entry in earlier versions: say where that went.
    if (ctx.values.question !== undefined || ctx.values.project !== undefined) {
      throw new EntryUsageError(
        "'entry ask NUMBER TEXT' asks an entry's author a follow-up (the comment /ask); to open an entry, use 'entry open --project P --question Q --tried T --needed N'",
      );
    }
    return command(ctx, "ask", (text) => `/ask ${text}`, "the question");
  },
  reply,
  status,
};

function durationOption(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = parseDuration(text);
  if (ms === undefined) {
    throw new EntryUsageError(
      `--${name} ${JSON.stringify(text)} is not a duration such as 30s, 10m or 1h`,
    );
  }
  return ms;
}

function issueNumber(text: string | undefined, command: string): number {
  const number = Number((text ?? "").replace(/^#/, ""));
  if (!Number.isInteger(number) || number < 1) {
    throw new EntryUsageError(
      `'entry ${command}' needs the entry's issue number first, such as 12`,
    );
  }
  return number;
}

const pollMs = (env: Env) => Number(env.AGATE_ENTRY_POLL_MS ?? 2_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `read` until it returns something or the time is up; null then. */
async function waitFor<T>(ms: number, env: Env, read: () => Promise<T | null>): Promise<T | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() >= deadline) return null;
    await sleep(Math.min(pollMs(env), Math.max(0, deadline - Date.now())));
  }
}

/** agate's hidden markers ending a comment (a kind's, then a write-once's), taken off. */
const stripMarker = (body: string) => body.replace(/(\s*<!-- agate:[^>]*-->)+\s*$/, "").trim();

async function open(ctx: Ctx): Promise<void> {
  const { values } = ctx;
  const pull = values.pull === undefined ? null : issueNumber(values.pull, "open --pull");
  const fields = {
    project: values.project ?? "",
    question: values.question ?? "",
    tried: values.tried ?? "",
    needed: values.needed ?? "",
    blocking_pull: pull,
  };
  const body = renderEntryForm(fields);
  const form = parseEntryForm(body);
  if (form.kind !== "entry") {
    const missing = form.kind === "refused" ? form.missing : [];
    throw new EntryUsageError(
      `an entry needs every required field; missing or empty: ${missing.map((f) => `--${f}`).join(", ")}`,
    );
  }
  const title = values.title ?? `Handoff: ${fields.question.split("\n")[0]?.slice(0, 80)}`;
  const number = await ctx.client.createIssue(title, body);
  if (values["no-wait"]) return report(ctx, { number, state: null }, `opened #${number}`);
  const timeout = durationOption(values.timeout, "timeout", 120_000);
  const answer = await waitFor(timeout, ctx.env, async () => {
    const comments = await ctx.client.comments(number);
    const app = comments.filter((c) => ctx.client.isApp(c.login));
    const refused = app.find((c) => c.body.includes("<!-- agate:entry-refused -->"));
    if (refused) return { refused: stripMarker(refused.body) };
    return entryStatus(comments, ctx.client.appLogin) ? { refused: null } : null;
  });
  if (answer === null) {
    throw new EntryRefusedError(
      `opened #${number}, but agate did not answer within ${values.timeout ?? "2m"}: is the agate App installed on ${ctx.client.fullName} with the issues event?`,
    );
  }
  if (answer.refused !== null) throw new EntryRefusedError(`#${number} refused: ${answer.refused}`);
  report(ctx, { number, state: "open" }, `entry #${number} is open`);
}

async function poll(ctx: Ctx): Promise<void> {
  const wait = durationOption(ctx.values.wait, "wait", 0);
  const list = async () => {
    const issues = await ctx.client.openIssues("agate:open");
    const entries = issues.flatMap((issue) => {
      const form = parseEntryForm(issue.body);
      if (form.kind !== "entry") return [];
      if (ctx.values.project !== undefined && form.fields.project !== ctx.values.project) return [];
      return [{ number: issue.number, author: issue.author, ...form.fields }];
    });
    return entries.length > 0 ? entries : null;
  };
  const found = (await waitFor(wait, ctx.env, list)) ?? [];
  if (ctx.values.json) {
    ctx.out.log(JSON.stringify(found));
    return;
  }
  if (found.length === 0) ctx.out.log("no open entries");
  for (const e of found) {
    ctx.out.log(
      `#${e.number} (${e.project}, by ${e.author}): ${e.question}\n  tried: ${e.tried}\n  needed: ${e.needed}`,
    );
  }
}

/** Posts a command and reports agate's reply to it: what happened, or why it was refused. */
async function command(
  ctx: Ctx,
  name: string,
  text: (rest: string) => string,
  needs?: string,
): Promise<void> {
  const number = issueNumber(ctx.args[0], name);
  const rest = ctx.args.slice(1).join(" ").trim();
  if (needs && rest === "")
    throw new EntryUsageError(`'entry ${name}' needs ${needs} after the number`);
  const id = await ctx.client.comment(number, text(rest));
  if (ctx.values["no-wait"]) return report(ctx, { number, comment: id }, `posted on #${number}`);
  const timeout = durationOption(ctx.values.timeout, "timeout", 120_000);
  const answered = await waitFor(timeout, ctx.env, async () => {
    for (const c of await ctx.client.comments(number)) {
      const marker = ctx.client.isApp(c.login) ? parseReplyMarker(c.body) : null;
      if (marker?.comment === id) return { marker, text: stripMarker(c.body) };
    }
    return null;
  });
  if (!answered) {
    throw new EntryRefusedError(
      `posted on #${number}, but agate did not answer within ${ctx.values.timeout ?? "2m"}; see the issue`,
    );
  }
  const { marker, text: said } = answered;
  if (marker.kind === "refused") throw new EntryRefusedError(`#${number}: ${said}`);
  report(
    ctx,
    { number, state: marker.state, kind: marker.kind, reply: said },
    `#${number} ${marker.state}: ${said}`,
  );
}

async function reply(ctx: Ctx): Promise<void> {
  const number = issueNumber(ctx.args[0], "reply");
  const text = ctx.args.slice(1).join(" ").trim();
  if (text === "" || text.startsWith("/")) {
    throw new EntryUsageError("'entry reply' needs the text after the number (not a command)");
  }
  const id = await ctx.client.comment(number, text);
  report(ctx, { number, comment: id }, `replied on #${number}`);
}

const FINAL = new Set(["resolved", "blocked", "escalated"]);

async function status(ctx: Ctx): Promise<void> {
  if (ctx.args[0] === undefined) return statusAll(ctx);
  const number = issueNumber(ctx.args[0], "status");
  const wait = durationOption(ctx.values.wait, "wait", 0);
  const read = async () => {
    const comments = await ctx.client.comments(number);
    const s = entryStatus(comments, ctx.client.appLogin);
    if (!s) return null;
    const markers = comments
      .filter((c) => ctx.client.isApp(c.login))
      .map((c) => parseReplyMarker(c.body))
      .filter((m): m is ReplyMarker => m !== null);
    const answered = markers.find((m) => m.kind === "answered");
    const answerComment = comments.find((c) => c.id === answered?.comment);
    const answer = answerComment ? answerComment.body.replace(/^\s*\/answer\s*/, "").trim() : null;
    const asked = markers
      .filter((m) => m.kind === "asked")
      .map((m) => comments.find((c) => c.id === m.comment));
    const followUps = asked.flatMap((c) => (c ? [c.body.replace(/^\s*\/ask\s*/, "").trim()] : []));
    // What people said, in order (agate's own replies left out): a follow-up's answer is here.
    const said = comments
      .filter((c) => !ctx.client.isApp(c.login))
      .map((c) => ({ id: c.id, login: c.login, body: c.body }));
    return { number, ...s, answer, follow_ups: followUps, comments: said };
  };
  // Waiting on an entry that is not final: said on the entry, so it is urgent while this waits.
  const first = wait > 0 ? await read() : null;
  const declared =
    first && !FINAL.has(first.state) ? await WaitDeclaration.post(ctx, number) : null;
  const found = await waitFor(wait, ctx.env, async () => {
    await declared?.renew();
    const s = await read();
    return s && (wait === 0 || FINAL.has(s.state)) ? s : null;
  });
  await declared?.end(found?.state ?? null);
  if (!found) {
    const last = await read();
    if (!last) throw new EntryRefusedError(`#${number} is not an entry agate has opened`);
    throw new EntryRefusedError(`#${number} is still ${last.state} after ${ctx.values.wait}`);
  }
  report(
    ctx,
    found,
    `#${number} ${found.state}${found.owner ? `, owner ${found.owner}` : ""}${found.answer ? `\nanswer: ${found.answer}` : ""}`,
  );
}

/**
 * `/wait LEASE` on the entry while `status --wait` waits (docs/entries.md, "Priority"): the App
 * counts it for LEASE from GitHub's time of the comment's last edit, so it is renewed by editing
 * it at half the lease, and ended by editing it into plain words.
 */
class WaitDeclaration {
  private renewals = 0;
  private renewedAt = Date.now();

  private constructor(
    private readonly ctx: Ctx,
    private readonly id: number,
    private readonly leaseMs: number,
  ) {}

  static async post(ctx: Ctx, number: number): Promise<WaitDeclaration> {
    const text = ctx.env.AGATE_ENTRY_WAIT_LEASE;
    const leaseMs = text === undefined ? 600_000 : parseDuration(text);
    if (leaseMs === undefined) {
      throw new EntryUsageError(
        `AGATE_ENTRY_WAIT_LEASE=${JSON.stringify(text)} is not a duration such as 30s or 10m`,
      );
    }
    const id = await ctx.client.comment(number, WaitDeclaration.body(leaseMs, 0));
    return new WaitDeclaration(ctx, id, leaseMs);
  }

  private static body(leaseMs: number, renewals: number): string {
    const lease =
      leaseMs % 60_000 === 0 ? `${leaseMs / 60_000}m` : `${Math.ceil(leaseMs / 1_000)}s`;
    return `/wait ${lease}\n\nThe author waits on this entry (${CLI_PACKAGE} entry status --wait${renewals > 0 ? `, renewed ${renewals} times` : ""}).`;
  }

  async renew(): Promise<void> {
    if (Date.now() - this.renewedAt < this.leaseMs / 2) return;
    this.renewals++;
    this.renewedAt = Date.now();
    await this.ctx.client.editComment(this.id, WaitDeclaration.body(this.leaseMs, this.renewals));
  }

  /** No longer a declaration: the App sees it gone when the lease's timer fires. */
  async end(state: string | null): Promise<void> {
    await this.ctx.client.editComment(
      this.id,
      `The author waited on this entry (${CLI_PACKAGE} entry status --wait)${state ? ` until it was ${state}` : ", and stopped waiting"}.`,
    );
  }
}

async function statusAll(ctx: Ctx): Promise<void> {
  const rows = [];
  for (const state of ["open", "claimed", "escalated"] as const) {
    for (const issue of await ctx.client.openIssues(`agate:${state}`)) {
      const owner =
        state === "open"
          ? null
          : (entryStatus(await ctx.client.comments(issue.number), ctx.client.appLogin)?.owner ??
            null);
      rows.push({
        number: issue.number,
        state,
        owner,
        author: issue.author,
        created_at: issue.created_at,
      });
    }
  }
  if (ctx.values.json) return ctx.out.log(JSON.stringify(rows));
  if (rows.length === 0) ctx.out.log("no open entries");
  for (const r of rows) {
    ctx.out.log(
      `#${r.number} ${r.state}${r.owner ? ` held by ${r.owner}` : ""} (opened by ${r.author} at ${r.created_at})`,
    );
  }
}

function report(ctx: Ctx, data: object, text: string): void {
  ctx.out.log(ctx.values.json ? JSON.stringify(data) : text);
}

/** The few REST calls the CLI makes (github/issues.ts, shared with the App), with a token from the environment. */
export class EntryClient {
  private readonly r: Repo;

  private constructor(
    token: string,
    baseUrl: string,
    readonly owner: string,
    readonly repo: string,
    readonly appLogin: string,
  ) {
    this.r = repoOf(tokenClient(token, baseUrl), owner, repo);
  }

  static fromEnv(env: Env, repoOption: string | undefined): EntryClient {
    // The same variables as doctor and validate (GH_TOKEN is the GitHub CLI's), AGATE_ first.
    const token = env.AGATE_GITHUB_TOKEN || env.GITHUB_TOKEN || env.GH_TOKEN;
    if (!token) {
      throw new EntryUsageError(
        "no token: set AGATE_GITHUB_TOKEN, GITHUB_TOKEN or GH_TOKEN to a token that can write issues in the repository (for example GH_TOKEN=$(gh auth token))",
      );
    }
    const full = repoOption ?? env.GITHUB_REPOSITORY;
    const [owner, repo, extra] = (full ?? "").split("/");
    if (!owner || !repo || extra !== undefined) {
      throw new EntryUsageError(
        `${full ? `${JSON.stringify(full)} is not a repository` : "no repository"}: pass --repo OWNER/NAME or set GITHUB_REPOSITORY`,
      );
    }
    const baseUrl = (env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
    return new EntryClient(token, baseUrl, owner, repo, env.AGATE_APP_LOGIN || "agate[bot]");
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`;
  }

  isApp(login: string): boolean {
    return login.toLowerCase() === this.appLogin.toLowerCase();
  }

  createIssue(title: string, body: string): Promise<number> {
    return issues.createIssue(this.r, title, body);
  }

  comment(number: number, body: string): Promise<number> {
    return issues.comment(this.r, number, body);
  }

  editComment(id: number, body: string): Promise<void> {
    return issues.editComment(this.r, id, body);
  }

  comments(number: number): Promise<issues.IssueCommentFact[]> {
    return issues.issueComments(this.r, number);
  }

  /** Open issues (not pull requests) with this label, oldest first. */
  async openIssues(label: string): Promise<issues.ListedIssue[]> {
    const listed = await issues.listIssues(this.r, { state: "open", labels: label });
    return listed.sort((a, b) => a.number - b.number);
  }
}
