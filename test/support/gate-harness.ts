import { join } from "node:path";
import type { Probot } from "probot";
import { beforeEach } from "vitest";
import { agateJobs, agateObserve, agateRoute } from "../../app/compose.js";
import type { EvaluatorDeps } from "../../app/gate/evaluator-job.js";
import { EvidenceCache } from "../../app/gate/evidence.js";
import { gatherPullRequest } from "../../app/gate/gather.js";
import { RequiredCheckReader } from "../../app/gate/required-check.js";
import { GitHubAdapter } from "../../app/github/adapter.js";
import { ImmutableReads } from "../../app/github/reads.js";
import { type JobRun, type JobServices, jobContext } from "../../app/runtime/jobs.js";
import { openStore } from "../../app/store/open-store.js";
import type { Store } from "../../app/store/store.js";
import type { GatheredFacts } from "../../schemas/gate.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import type { Job } from "../../schemas/store.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import type { Delivery, GitHubSimulator } from "../github/index.js";
import type { RequiredStatusCheck } from "../github/state.js";
import { deliveryInput } from "./delivery-input.js";
import { EVIDENCE_WORKFLOW_TEXT } from "./evidence-workflow.js";
import { testConfig } from "./runner-users.js";
import { type SimulatedCiOptions, type SimulatedCiRun, simulatedCi } from "./simulated-ci.js";
import {
  simulatorProbot,
  simulatorServices,
  useHarnessTemp,
  useSimulator,
} from "./simulator-app.js";

/** What the harness's jobs run with, as a worker's would: a test may replace a client. */
export type HarnessDeps = JobServices & Pick<JobRun, "retried" | "jobId">;

/**
 * The gate against the simulator, for end-to-end tests: real git, the real Action bundle
 * publishing its record, real workflow-run data, and the App's gate code reading it all over
 * HTTP with an installation token. Each delivery goes through the App's route, and its jobs to
 * their handlers directly, in order, as the workers would (then the jobs they queued: passes of
 * pull requests found by head, the evaluator); the runtime has its own tests. Call once per test
 * file, at the top level.
 */
export interface GateHarness {
  readonly sim: GitHubSimulator;
  readonly store: Store;
  readonly temp: string;
  deps(): HarnessDeps;
  /** The evidence cache this test's jobs share, as one App process shares it. */
  evidence(): EvidenceCache;
  /**
   * One gather of a pull request's live head on an adapter of its own (its `calls` count only
   * this gather), as a pass would make it.
   */
  gather(
    repo: string,
    number: number,
    options?: Partial<Parameters<typeof gatherPullRequest>[2]>,
  ): Promise<{ github: GitHubAdapter; facts: GatheredFacts }>;
  /** Runs one job through the App's job registry, as a worker would; its log line. */
  run(job: Pick<Job, "kind" | "payload">, deps?: HarnessDeps): Promise<string>;
  /** Hands every delivery since the last call to the gate job, in order. */
  processDeliveries(): Promise<void>;
  /** The deliveries not yet handed over, now counted as handled: a test hands them itself. */
  takePending(): Promise<Delivery[]>;
  /** Routes one delivery and runs its jobs, with `deps` (default: the harness's). */
  handle(delivery: Delivery, deps?: HarnessDeps): Promise<void>;
  /** A repository with the config, an agent branch with `files`, and its pull request opened. */
  agentPullRequest(
    repo: string,
    files: Record<string, string | null>,
    options?: {
      labels?: string[];
      branch?: string;
      config?: string;
      body?: string;
      title?: string;
      baseFiles?: Record<string, string>;
      trailers?: Record<string, string>;
      /** Opened before the branch, so the first is #1 and the pull request comes after them. */
      issues?: { title: string; body: string }[];
      /** Required status checks of a ruleset on the default branch, made with the repository. */
      requiredChecks?: RequiredStatusCheck[];
    },
  ): Promise<{ head: string; number: number; branch: string }>;
  /** The agent pushes `files` to `branch`; the deliveries that causes are handled. */
  agentPush(repo: string, branch: string, files: Record<string, string | null>): Promise<string>;
  /** CI on the head as GitHub runs the README's workflow: the Action uploads its record. */
  ci(
    repo: string,
    branch: string,
    head: string,
    options?: Partial<Omit<SimulatedCiOptions, "sim" | "repo" | "head" | "temp" | "settle">>,
  ): Promise<SimulatedCiRun>;
  /** The newest `agate` check run on a commit. */
  gateCheck(
    repo: string,
    sha: string,
  ): ReturnType<GitHubSimulator["checkRuns"]>[number] | undefined;
}

export const ANSWER_CONFIG =
  'version: 1\ncommands:\n  - name: answer\n    run: test "$(cat answer.txt)" = 42\n';

export { EVIDENCE_WORKFLOW_TEXT } from "./evidence-workflow.js";

export function useGateHarness(
  options: {
    evaluator?: () => EvaluatorDeps | undefined;
    /** Queued job kinds worked besides the gate's passes and evaluations (the dashboard's). */
    alsoWork?: string[];
  } = {},
): GateHarness {
  let store: Store | undefined;
  let probot: Probot | undefined;
  let handled = 0;
  // Shared by every job of a test, as one App process shares them.
  let reads = new ImmutableReads();
  let evidence = new EvidenceCache();
  let setup: RequiredCheckReader | undefined;
  // GitHub makes a check run for every job too (GitHub Actions' own); only the App's counts.
  const simulator = useSimulator({ jobCheckRuns: true });
  const { temp, need } = useHarnessTemp("gate", () => store);
  beforeEach(async () => {
    const s = simulator();
    s.reset();
    probot = simulatorProbot(s);
    await store?.close();
    store = await openStore({
      url: `file:${join(temp, `gate-${Date.now()}-${Math.random()}.db`)}`,
    });
    handled = s.deliveries.length;
    reads = new ImmutableReads();
    evidence = new EvidenceCache();
    // As the App reads it: whether the base branch requires agate from this App.
    setup = new RequiredCheckReader({
      app: async () => ({ id: s.appId, slug: s.appSlug }),
      now: () => new Date(),
    });
  });

  const harness: GateHarness = {
    get sim() {
      return simulator();
    },
    get store() {
      return need(store, "store");
    },
    temp,
    deps() {
      return simulatorServices(simulator(), need(probot, "Probot"), {
        store: need(store, "store"),
        now: () => new Date(),
        reads,
      });
    },
    evidence: () => evidence,
    async gather(repo, number, options = {}) {
      const deps = harness.deps();
      const github = new GitHubAdapter(
        await deps.octokitFor(simulator().installationId),
        `${simulator().owner}/${repo}`,
        simulator().appSlug,
      );
      const gathered = await gatherPullRequest(
        {
          github,
          store: deps.store,
          reads: deps.reads,
          evidence,
          agateVersion: AGATE_VERSION,
          now: deps.now,
        },
        { number, head_sha: null, base_sha: null },
        { skipRuns: false, rerunEvaluator: false, ...options },
      );
      if (gathered.status !== "gathered") throw new Error(`not gathered: ${gathered.reason}`);
      return { github, facts: gathered.facts };
    },
    run(job, deps = harness.deps()) {
      const evaluator = options.evaluator?.();
      const jobs = agateJobs({
        evidence,
        ...(setup ? { requiredChecks: setup } : {}),
        ...(evaluator ? { evaluator } : {}),
      });
      return jobs.run(job, jobContext(deps, deps));
    },
    async processDeliveries() {
      const s = simulator();
      const jobs = need(store, "store");
      await s.flushWebhooks();
      // Deliveries in order, then the evaluations they queued (a workflow event that names only
      // a head), as a worker would take them; until neither has anything left.
      for (;;) {
        if (handled < s.deliveries.length) {
          const d = s.deliveries[handled++];
          if (d) await harness.handle(d);
          await s.flushWebhooks();
          continue;
        }
        const claimed = await jobs.claimJob({
          workerId: "gate-harness",
          leaseMs: 60_000,
          kinds: [
            GATE_JOBS.pullRequest.kind,
            GATE_JOBS.head.kind,
            GATE_JOBS.evaluator.kind,
            ...(options.alsoWork ?? []),
          ],
        });
        if (!claimed) break;
        await harness.run(claimed.job);
        await jobs.completeJob(claimed.lease);
        await s.flushWebhooks();
      }
    },
    async takePending() {
      const s = simulator();
      await s.flushWebhooks();
      const pending = s.deliveries.slice(handled);
      handled = s.deliveries.length;
      return pending;
    },
    async handle(d, deps = harness.deps()) {
      // Through the store as the intake and a worker would: the payload's digest is checked on
      // the way in, and the gate job gets what the store gives back, not the test's object.
      const s = need(store, "store");
      await s.recordDelivery({
        ...deliveryInput(d, new Date().toISOString()),
        jobs: [],
        sightings: agateObserve(d.event, d.payload),
      });
      const stored = await s.getDelivery(d.id);
      if (!stored) throw new Error(`the store lost delivery ${d.id} it had just recorded`);
      for (const job of agateRoute(stored.event, JSON.parse(stored.payload), stored.id)) {
        await harness.run(job, deps);
      }
    },
    async agentPullRequest(repo, files, opts = {}) {
      const s = simulator();
      await s.createRepository({
        repo,
        files: {
          ".github/agate.yml": testConfig(opts.config ?? ANSWER_CONFIG),
          "answer.txt": "0\n",
          ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT,
          ...opts.baseFiles,
        },
      });
      if (opts.requiredChecks) s.addRuleset({ repo, requiredChecks: opts.requiredChecks });
      for (const issue of opts.issues ?? []) {
        await s.createIssue({ repo, ...issue, user: "octocat" });
      }
      const branch = opts.branch ?? "codex/answer";
      const head = await s.pushCommit({
        repo,
        branch,
        files,
        author: "codex[bot]",
        ...(opts.trailers ? { trailers: opts.trailers } : {}),
      });
      const { number } = await s.openPullRequest({
        repo,
        head: branch,
        title: opts.title ?? "Answer",
        ...(opts.body !== undefined ? { body: opts.body } : {}),
        user: "codex[bot]",
        labels: opts.labels ?? [],
      });
      await harness.processDeliveries();
      return { head, number, branch };
    },
    async agentPush(repo, branch, files) {
      const sha = await simulator().pushCommit({
        repo,
        branch,
        files,
        author: "codex[bot]",
      });
      await harness.processDeliveries();
      return sha;
    },
    ci(repo, branch, head, options = {}) {
      return simulatedCi({
        sim: simulator(),
        repo,
        branch,
        head,
        temp,
        settle: () => harness.processDeliveries(),
        ...options,
      });
    },
    gateCheck(repo, sha) {
      const s = simulator();
      return s
        .checkRuns({ repo })
        .filter((c) => c.name === "agate" && c.headSha === sha && c.app.slug === s.appSlug)
        .at(-1);
    },
  };
  return harness;
}
