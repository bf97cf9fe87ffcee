import { join } from "node:path";
import type { Probot } from "probot";
import { beforeEach } from "vitest";
import { agateJobs, agateRoute } from "../../app/compose.js";
import { type JobServices, jobContext } from "../../app/runtime/jobs.js";
import { SqliteStore } from "../../app/store/sqlite-store.js";
import type { Delivery, GitHubSimulator } from "../github/index.js";
import type { CheckRun, Comment, Issue } from "../github/state.js";
import { deliveryInput } from "./delivery-input.js";
import {
  simulatorProbot,
  simulatorServices,
  useHarnessTemp,
  useSimulator,
} from "./simulator-app.js";
import { frozenClock, type TestClock } from "./store.js";

export const ENTRY_FORM = (fields: {
  project?: string;
  question?: string;
  tried?: string;
  needed?: string;
  pull?: string;
}) =>
  [
    `### Project\n\n${fields.project ?? "widgets"}`,
    `### Question\n\n${fields.question ?? "Which port does the staging database listen on?"}`,
    `### Tried\n\n${fields.tried ?? "Read README.md and config/; nothing names it."}`,
    `### Needed\n\n${fields.needed ?? "The port number."}`,
    `### Blocking pull request\n\n${fields.pull ?? "_No response_"}`,
  ].join("\n\n");

/** A config with one command and the maintainers who decide escalations. */
export const entriesConfig = (maintainers = "octocat") =>
  `version: 1\ncommands:\n  - name: test\n    run: "true"\nescalation:\n  maintainers: [${maintainers}]\n`;

export interface EntriesHarness {
  readonly sim: GitHubSimulator;
  readonly store: SqliteStore;
  readonly clock: TestClock;
  /** Log lines of every job run, in order. */
  readonly log: string[];
  deps(): JobServices;
  /** Records every new delivery with its routed jobs, then runs every due job, until quiet. */
  work(): Promise<void>;
  /** Moves the clock on (GitHub's and the App's), then works. */
  advance(ms: number): Promise<void>;
  /** Moves the clock (GitHub's too) without working: webhooks and timers wait for work(). */
  tick(ms: number): void;
  /** Records one delivery (under `id`, default its own) with its routed jobs; nothing is run. */
  record(delivery: Delivery, id?: string): Promise<"new" | "duplicate" | "conflict">;
  /** The deliveries not recorded yet, now counted as taken: the test records them itself. */
  takePending(): Promise<Delivery[]>;
  /** Runs due jobs until none is left. */
  runJobs(): Promise<void>;
  /** The repository with the config, and an entry issue opened by `user`; its number. */
  repo(name: string, config?: string): Promise<void>;
  openEntry(repo: string, body: string, user?: string): Promise<number>;
  comment(repo: string, number: number, body: string, user: string): Promise<number>;
  issue(repo: string, number: number): Issue;
  /** agate's comments on the issue (its bot's), oldest first. */
  agateComments(repo: string, number: number): Comment[];
  /**
   * A commit pushed to `branch` (codex/x: an agent's, which the default `gate` selects) and a
   * pull request opened from it by `user` (agent-a), then worked; its number and head.
   */
  openPull(
    repo: string,
    options?: { branch?: string; title?: string; user?: string; body?: string },
  ): Promise<{ number: number; head: string }>;
  /** The App's latest `agate` check on a head, as GitHub shows it. */
  agateCheck(repo: string, head: string): CheckRun;
}

export function useEntriesHarness(): EntriesHarness {
  let store: SqliteStore | undefined;
  let probot: Probot | undefined;
  let clock: TestClock | undefined;
  let taken = 0;
  const log: string[] = [];
  const simulator = useSimulator();
  const { temp, need } = useHarnessTemp("entries", () => store);
  beforeEach(async () => {
    const s = simulator();
    s.reset();
    // Now, to the second, so GitHub's timestamps and the App's clock are one and the same.
    clock = frozenClock(new Date(Math.floor(Date.now() / 1000) * 1000).toISOString());
    s.setClock(clock.now);
    probot = simulatorProbot(s);
    await store?.close();
    store = SqliteStore.open(join(temp, `entries-${Date.now()}-${Math.random()}.db`), {
      now: clock.now,
    });
    taken = s.deliveries.length;
    log.length = 0;
  });

  const harness: EntriesHarness = {
    get sim() {
      return simulator();
    },
    get store() {
      return need(store, "store");
    },
    get clock() {
      return need(clock, "clock");
    },
    log,
    deps() {
      return simulatorServices(simulator(), need(probot, "Probot"), {
        store: need(store, "store"),
        now: need(clock, "clock").now,
      });
    },
    async record(d, id = d.id) {
      const s = need(store, "store");
      const input = deliveryInput(d, need(clock, "clock").now().toISOString(), id);
      const result = await s.recordDelivery({
        ...input,
        jobs: agateRoute(d.event, JSON.parse(input.payload), id),
      });
      return result.status;
    },
    async takePending() {
      const s = simulator();
      await s.flushWebhooks();
      const pending = s.deliveries.slice(taken);
      taken = s.deliveries.length;
      return pending;
    },
    async runJobs() {
      const s = need(store, "store");
      for (;;) {
        const claimed = await s.claimJob({ workerId: "entries-harness", leaseMs: 60_000 });
        if (!claimed) return;
        log.push(await agateJobs().run(claimed.job, jobContext(harness.deps())));
        await s.completeJob(claimed.lease);
      }
    },
    async work() {
      for (let round = 0; round < 50; round++) {
        const pending = await harness.takePending();
        for (const d of pending) await harness.record(d);
        await harness.runJobs();
        await simulator().flushWebhooks();
        if (simulator().deliveries.length === taken) return;
      }
      throw new Error("the entries harness did not settle in 50 rounds (a loop of webhooks?)");
    },
    async advance(ms) {
      need(clock, "clock").advance(ms);
      await harness.work();
    },
    tick(ms) {
      need(clock, "clock").advance(ms);
    },
    async repo(name, config) {
      await simulator().createRepository({
        repo: name,
        files: config === undefined ? { "README.md": "x\n" } : { ".github/agate.yml": config },
      });
    },
    async openEntry(repo, body, user = "agent-a") {
      const number = await simulator().createIssue({
        repo,
        title: "Handoff: a question",
        body,
        user,
      });
      await harness.work();
      return number;
    },
    async comment(repo, number, body, user) {
      const id = await simulator().addIssueComment({ repo, number, body, user });
      await harness.work();
      return id;
    },
    issue(repo, number) {
      const s = simulator();
      return s.world.issue(s.repository({ repo }), number);
    },
    async openPull(repo, { branch = "codex/x", title = "Half", user = "agent-a", body } = {}) {
      const s = simulator();
      await s.pushCommit({ repo, branch, files: { "a.txt": "a\n" } });
      const pull = await s.openPullRequest({
        repo,
        head: branch,
        title,
        user,
        ...(body === undefined ? {} : { body }),
      });
      await harness.work();
      return { number: pull.number, head: pull.headSha };
    },
    agateCheck(repo, head) {
      const s = simulator();
      const run = s
        .checkRuns({ repo })
        .filter((r) => r.name === "agate" && r.headSha === head)
        .at(-1);
      if (!run) throw new Error(`no agate check on ${head} in ${repo}`);
      return run;
    },
    agateComments(repo, number) {
      const s = simulator();
      return harness
        .issue(repo, number)
        .comments.filter((c) => c.user.login === `${s.appSlug}[bot]`);
    },
  };
  return harness;
}
