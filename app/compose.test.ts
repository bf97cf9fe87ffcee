import { describe, expect, it } from "vitest";
import { DASHBOARD_JOBS } from "../schemas/jobs/dashboard.js";
import { ENTRY_JOBS } from "../schemas/jobs/entries.js";
import { GATE_JOBS } from "../schemas/jobs/gate.js";
import { allWebhookExamples } from "../test/support/webhook-examples.js";
import { agateJobs, agateRoute } from "./compose.js";

describe("the App's jobs and routes, composed from the domains", () => {
  it("keeps every kind's stored name: queued jobs outlive a release", () => {
    expect([...agateJobs().kinds].sort()).toEqual(
      [
        "entries.dashboard",
        "entries.deadline",
        "entries.entry",
        "entries.pull_request",
        "gate.evaluator",
        "gate.head",
        "gate.merge_group",
        "gate.merge_group_deadline",
        "gate.override",
        "gate.pull_request",
        "gate.reconcile",
        "gate.repository_labels",
      ].sort(),
    );
    const specs = [
      ...Object.values(GATE_JOBS),
      ...Object.values(ENTRY_JOBS),
      ...Object.values(DASHBOARD_JOBS),
    ];
    expect(specs.map((spec) => spec.kind).sort()).toEqual([...agateJobs().kinds].sort());
  });

  it("never routes a job kind that is not registered, for any example of any event", () => {
    const jobs = agateJobs();
    let routed = 0;
    for (const [name, payload] of allWebhookExamples()) {
      const withInstallation = { installation: { id: 1 }, ...(payload as object) };
      for (const job of agateRoute(name, withInstallation, "d")) {
        routed++;
        expect(jobs.kinds, `${name} routes ${job.kind}`).toContain(job.kind);
        // And the payload is what the job's schema takes.
        expect(() => jobs.parse(job.kind, job.payload)).not.toThrow();
      }
    }
    expect(routed).toBeGreaterThan(10);
  });

  it("routes the entries before the gate: a reopened pull request's entries run before its pass, under one key", () => {
    const reopened = agateRoute(
      "pull_request",
      {
        action: "reopened",
        repository: { full_name: "o/r" },
        installation: { id: 7 },
        pull_request: {
          number: 4,
          head: { sha: "1".repeat(40) },
          base: { ref: "main", sha: "2".repeat(40) },
        },
      },
      "d",
    );
    expect(reopened.map((j) => [j.kind, j.concurrency_key])).toEqual([
      [ENTRY_JOBS.pullRequestEntries.kind, "o/r#4"],
      [GATE_JOBS.pullRequest.kind, "o/r#4"],
    ]);
  });

  it("keeps the reconcile pass queued only when told how often", () => {
    const reconcile = (jobs: ReturnType<typeof agateJobs>) =>
      jobs.registrations.find((r) => r.spec.kind === GATE_JOBS.reconcile.kind);
    expect(reconcile(agateJobs())?.everyMs).toBeUndefined();
    expect(reconcile(agateJobs({ reconcileEveryMs: 60_000 }))?.everyMs).toBe(60_000);
    expect(agateJobs().registrations.filter((r) => r.everyMs !== undefined)).toEqual([]);
  });
});
