import { beforeEach, describe, expect, it } from "vitest";
import { postDelivery } from "../../test/support/local-app.js";
import { eventually, recordingLog } from "../../test/support/recording-log.js";
import { DAY, frozenClock, type TestClock } from "../../test/support/store.js";
import { useLocalApp } from "../../test/support/use-local-app.js";
import { webhookExample } from "../../test/support/webhook-examples.js";
import { DeliveryPrunedError } from "../store/errors.js";

const SECRET = "retention-test-secret";
const app = useLocalApp(SECRET);

let clock: TestClock;
beforeEach(() => {
  clock = frozenClock();
});

const deliver = (url: string, id: string, body: string) =>
  postDelivery(url, { event: "pull_request", id, body }, SECRET);

async function start(options: { retention?: string; pruneIntervalMs?: number } = {}) {
  const log = recordingLog();
  const ran: string[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const agate = await app.start({
    env: app.env({
      // One worker: the held job blocks it, and no second worker takes that job over when the
      // frozen clock jumps past its lease.
      AGATE_WORKERS: "1",
      ...(options.retention ? { AGATE_DELIVERY_RETENTION: options.retention } : {}),
    }),
    now: clock.now,
    log,
    pollMs: 10,
    ...(options.pruneIntervalMs ? { pruneIntervalMs: options.pruneIntervalMs } : {}),
    handlers: {
      "gate.pull_request": async (job) => {
        // The delivery "held" stays running until the test lets it go.
        if (job.delivery_id === "held") await held;
        ran.push(job.delivery_id ?? "?");
      },
    },
  });
  return { agate, log, ran, release };
}

const body = (number: number) =>
  JSON.stringify({ ...webhookExample("pull_request", "opened"), number });

describe("delivery retention in the running App (frozen clock)", () => {
  it("prunes processed deliveries past AGATE_DELIVERY_RETENTION, keeps a running one, and still acknowledges a pruned one sent again without running it", async () => {
    const { agate, log, ran, release } = await start({ retention: "2d" });
    expect(await deliver(agate.url, "done", body(1))).toBe(200);
    expect(await deliver(agate.url, "held", body(2))).toBe(200);
    await eventually("the first delivery's job to run", () => ran.includes("done"));
    await eventually("its job to be marked done", async () =>
      (await agate.store.listJobs({ deliveryId: "done" })).every((j) => j.status === "done"),
    );

    clock.advance(2 * DAY - 1);
    expect(await agate.pruneDeliveries()).toBe(0);
    clock.advance(1);
    expect(await agate.pruneDeliveries()).toBe(1);
    await expect(agate.store.getDelivery("done")).rejects.toThrow(DeliveryPrunedError);
    // Still running: kept, whatever its age.
    expect((await agate.store.getDelivery("held"))?.payload).toBe(body(2));
    expect(log.entries.map((entry) => entry.message)).toContainEqual(
      expect.stringMatching(/^pruned the payloads of 1 processed webhook deliveries/),
    );

    // GitHub redelivers the pruned one: acknowledged by its digest, not run again.
    expect(await deliver(agate.url, "done", body(1))).toBe(200);
    expect(await agate.store.listJobs({ deliveryId: "done" })).toHaveLength(1);
    // The same id with another body is still a conflict.
    expect(await deliver(agate.url, "done", body(3))).toBe(409);

    release();
    await eventually("the held job to be done", async () =>
      (await agate.store.listJobs({ deliveryId: "held" })).every((j) => j.status === "done"),
    );
    expect(await agate.pruneDeliveries()).toBe(1);
    expect(ran).toEqual(["done", "held"]);
  });

  it("runs a pass on its own timer", async () => {
    const { agate, ran } = await start({ retention: "1h", pruneIntervalMs: 50 });
    expect(await deliver(agate.url, "d-1", body(1))).toBe(200);
    await eventually("the job to be done", async () => {
      const jobs = await agate.store.listJobs({ deliveryId: "d-1" });
      return ran.length === 1 && jobs.every((j) => j.status === "done");
    });
    clock.advance(3_600_000);
    await eventually(
      "the timer to prune the payload",
      async () => (await agate.store.getDeliveryRecord("d-1"))?.pruned !== null,
    );
    expect((await agate.store.getDeliveryRecord("d-1"))?.pruned).toEqual({
      pruned_at: clock.now().toISOString(),
      retention_ms: 3_600_000,
    });
  });
});
