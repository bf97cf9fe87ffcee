import { evaluateJobSchema } from "../../schemas/jobs.js";
import { evaluatorPolicyFrom } from "../evaluator/policy.js";
import { AppAdapter, type GitHubClient } from "../github/adapter.js";
import { GATE_DELIVERY } from "../runtime/route.js";
import type { Runtime } from "../runtime/server.js";
import type { JobHandler } from "../runtime/worker.js";
import type { EvaluatorDeps } from "./ask-evaluator.js";
import { EvidenceCache } from "./evidence.js";
import { ConfigCache } from "./gather.js";
import { handleEvaluateJob, handleGateDelivery } from "./handle-delivery.js";
import { handleMergeGroupDeadline, MERGE_GROUP_DEADLINE } from "./merge-group.js";
import { EVALUATE, reconcileOnce } from "./reconcile.js";

export const RECONCILE = "gate.reconcile";

/** Every job kind the App handles; the router may enqueue only these (a test holds it to that). */
export const HANDLED_KINDS = [GATE_DELIVERY, MERGE_GROUP_DEADLINE, RECONCILE, EVALUATE] as const;

/** The gate's job handlers, given the running App (its Probot for installation tokens). */
export function gateJobHandlers(
  runtime: Runtime,
): Record<(typeof HANDLED_KINDS)[number], JobHandler> {
  const configs = new ConfigCache();
  const evidence = new EvidenceCache();
  const intervalMs = runtime.settings.reconcileIntervalMs;
  let slug: Promise<string> | undefined;
  const app = async () => new AppAdapter((await runtime.probot.auth()) as GitHubClient);
  const appSlug = () => {
    slug ??= app().then((adapter) => adapter.slug());
    slug.catch(() => {
      slug = undefined;
    });
    return slug;
  };
  const octokitFor = async (id: number) => (await runtime.probot.auth(id)) as GitHubClient;
  const now = () => new Date();
  const evaluator: EvaluatorDeps = {
    policy: evaluatorPolicyFrom(runtime.env),
    judgeOptions: {
      env: runtime.env,
      timeoutMs: runtime.settings.evaluatorTimeoutMs,
      maxRetries: runtime.settings.evaluatorRetries,
    },
  };
  // One pass queued at all times: the first soon after start, then one per interval. No
  // concurrency key: a keyed job waits behind older ones of its key, and the next pass is always
  // queued in the future; two passes at once only queue the same keyed evaluations twice.
  const scheduleReconcile = async (at: Date) => {
    const queued = await runtime.store.listJobs({ status: "queued" });
    if (queued.some((job) => job.kind === RECONCILE)) return;
    await runtime.store.enqueue({ kind: RECONCILE, payload: null, run_at: at.toISOString() });
  };
  void scheduleReconcile(new Date(Date.now() + Math.min(intervalMs, 5_000)));

  return {
    [GATE_DELIVERY]: async (job, { delivery }) => {
      if (!delivery) throw new Error(`job ${job.id} names no stored delivery`);
      await handleGateDelivery(delivery, {
        store: runtime.store,
        now,
        octokitFor,
        appSlug,
        configs,
        evidence,
        evaluator,
        log: (line) => runtime.log.info({ job: job.id }, line),
      });
    },
    [MERGE_GROUP_DEADLINE]: async (job) =>
      handleMergeGroupDeadline(job.payload, {
        store: runtime.store,
        now,
        octokitFor,
        appSlug,
        configs,
        log: (line) => runtime.log.info({ job: job.id }, line),
      }),
    [RECONCILE]: async (job) => {
      // The next pass is queued first, so a failing pass (retried with backoff) never ends them.
      await scheduleReconcile(new Date(Date.now() + intervalMs));
      await reconcileOnce({
        store: runtime.store,
        app: await app(),
        octokitFor,
        appSlug,
        log: (line) => runtime.log.info({ job: job.id }, line),
      });
    },
    [EVALUATE]: async (job) => {
      const result = await handleEvaluateJob(job.payload, {
        store: runtime.store,
        now,
        octokitFor,
        appSlug,
        configs,
        evidence,
        evaluator,
      });
      const { repository, number } = evaluateJobSchema.parse(job.payload);
      runtime.log.info(
        { job: job.id },
        `${repository}#${number} after gate.evaluate: ${result.skipped ?? result.decision?.title} (${result.calls} GitHub calls)`,
      );
    },
  };
}
