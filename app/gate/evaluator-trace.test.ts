import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TraceFact } from "../../schemas/gate.js";
import { gateFacts, HEAD } from "../../test/support/gate-facts.js";
import { SqliteStore } from "../store/sqlite-store.js";
import { decidedTrace } from "./evaluator-job.js";

const dir = mkdtempSync(join(tmpdir(), "agate-evaluator-trace-"));
const store = SqliteStore.open(join(dir, "agate.db"));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const trace: TraceFact = {
  run_id: 99,
  run_attempt: 1,
  artifact: "agate-trace-report-attempt-1",
  traces: [{ source: "trace.jsonl", report: null, error: "line 1: not valid JSON" }],
  error: null,
};

async function decide(facts: object, at: string, head = HEAD) {
  await store.appendAudit({
    kind: "gate.decision",
    subject: `octo/widgets#7@${head}`,
    decision: {},
    facts: JSON.parse(JSON.stringify(facts)),
    at,
  });
}

describe("the evaluator job's trace: the head's newest stored decision", () => {
  const pr = gateFacts().pull_request;

  it("none decided yet, or decided before agate read traces: no trace", async () => {
    expect(await decidedTrace(store, pr)).toBeNull();
    await decide(gateFacts(), "2026-12-02T10:00:00.000Z");
    expect(await decidedTrace(store, pr)).toBeNull();
  });

  it("the newest decision's reports, and only the head's own", async () => {
    await decide({ ...gateFacts(), trace }, "2026-12-02T10:01:00.000Z");
    await decide(
      { ...gateFacts(), trace: { ...trace, run_id: 5 } },
      "2026-12-02T10:02:00.000Z",
      "9".repeat(40),
    );
    expect(await decidedTrace(store, pr)).toEqual(trace);
  });

  it("a stored trace that is not one (a hand-edited row) is left out, never thrown", async () => {
    await decide({ ...gateFacts(), trace: { run_id: "x" } }, "2026-12-02T10:03:00.000Z");
    expect(await decidedTrace(store, pr)).toBeNull();
  });
});
