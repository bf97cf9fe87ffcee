// The fault injector: the nth write is applied (state, webhooks, the write log) and its answer
// dropped or held, so a client cannot tell whether it happened.
import { describe, expect, it } from "vitest";
import { installationClient } from "./clients.js";
import { useSimulator } from "./use-simulator.js";

const { sim } = useSimulator({
  seed: async (sim) => {
    await sim.createRepository({ repo: "demo", files: { "README.md": "hello\n" } });
    await sim.createIssue({ repo: "demo", title: "An issue", body: "text", user: "octocat" });
  },
});

const comments = () => sim.world.issue(sim.repository({ repo: "demo" }), 1).comments;
const post = (body: string) =>
  installationClient(sim).rest.issues.createComment({
    owner: sim.owner,
    repo: "demo",
    issue_number: 1,
    body,
  });

describe("the simulator's fault injector", () => {
  it("drops the answer to the nth write after applying it; the client sees a network error", async () => {
    const fired = sim.faults.arm({ nth: 2, mode: "drop" });
    await post("first");
    const error = await post("second").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as { status?: number }).status).toBe(500);
    const event = await fired;
    expect(event).toMatchObject({
      n: 2,
      mode: "drop",
      operationId: "issues/create-comment",
      status: 201,
      params: { issue_number: "1" },
      body: { body: "second" },
    });
    // Applied: GitHub has the comment, sent its webhook, and the write log shows it.
    expect(comments().map((c) => c.body)).toEqual(["first", "second"]);
    await sim.flushWebhooks();
    expect(sim.deliveries.filter((d) => d.event === "issue_comment")).toHaveLength(2);
    expect(sim.writes.map((w) => [w.operationId, w.status])).toContainEqual([
      "issues/create-comment",
      201,
    ]);
    expect(
      sim.writes.filter((w) => w.operationId === "issues/create-comment").map((w) => w.write.body),
    ).toEqual([{ body: "first" }, { body: "second" }]);
    // Disarmed after firing: the next write is answered.
    await expect(post("third")).resolves.toMatchObject({ status: 201 });
  });

  it("holds the answer: the client waits until the answer is released, the write is applied", async () => {
    const fired = sim.faults.arm({ nth: 1, mode: "hang" });
    let settled = false;
    const request = post("held").finally(() => {
      settled = true;
    });
    request.catch(() => undefined);
    const event = await fired;
    expect(event.mode).toBe("hang");
    expect(comments().map((c) => c.body)).toEqual(["held"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    sim.faults.release();
    await expect(request).rejects.toBeInstanceOf(Error);
  });

  it("counts only writes that reached a handler, without the token exchange, from arm on", async () => {
    await post("before");
    // The first call of a new client mints a token (a POST), which does not count.
    const fired = sim.faults.arm({ nth: 1, mode: "drop" });
    const labelled = installationClient(sim).rest.issues.addLabels({
      owner: sim.owner,
      repo: "demo",
      issue_number: 1,
      labels: ["x"],
    });
    await expect(labelled).rejects.toBeInstanceOf(Error);
    expect((await fired).operationId).toBe("issues/add-labels");
    expect(sim.labelsOf({ repo: "demo", number: 1 })).toEqual(["x"]);
    // A read is never faulted, a custom filter picks which writes count.
    sim.faults.count((write) => write.operationId === "issues/create-comment");
    await post("counted");
    await installationClient(sim).rest.issues.get({
      owner: sim.owner,
      repo: "demo",
      issue_number: 1,
    });
    expect(sim.faults.counted).toBe(1);
  });
});
