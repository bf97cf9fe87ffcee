import { describe, expect, it } from "vitest";
import type { TraceFact } from "../../schemas/gate.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import {
  BASE,
  commandEvidence,
  gateFacts,
  HEAD,
  handoffFacts,
  loadedConfig,
} from "../../test/support/gate-facts.js";
import { BUNDLE_TRACES, buildBundle, bundleTrace } from "./bundle.js";
import { evaluatorInputs } from "./inputs.js";

const config = loadedConfig().config;
const task = { title: "Add a", body: "Fixes #3" };

const trace: TraceFact = {
  run_id: 99,
  run_attempt: 1,
  artifact: "agate-trace-report-attempt-1",
  traces: Array.from({ length: 8 }, (_, i) => ({
    source: `trace-${i}.jsonl`,
    report: null,
    error: `line 1: not valid JSON ${"x".repeat(1_000)}`,
  })),
  error: null,
};

describe("the evaluator job's inputs: what the pass that asks read and believed", () => {
  it("the trace of the believed record's run, cut as the bundle cuts it; none without one", () => {
    const inputs = evaluatorInputs(gateFacts({ trace }), task, config);
    expect(inputs?.trace).toEqual(bundleTrace(trace));
    expect(inputs?.trace?.traces).toHaveLength(BUNDLE_TRACES);
    expect(evaluatorInputs(gateFacts({ trace: null }), task, config)?.trace).toBeNull();
    expect(evaluatorInputs(gateFacts(), task, config)?.trace).toBeNull();
  });

  it("only a believed record's commands: a refused or awaited one is not the evaluator's", () => {
    const believed = commandEvidence([0, 0]);
    const refused = { ...commandEvidence([0]), refused: "the run is not this head's" };
    const waiting = { ...commandEvidence([0]), waiting: "the job has not finished" };
    const inputs = evaluatorInputs(
      gateFacts({ evidence: [believed, refused, waiting] }),
      task,
      config,
    );
    expect(inputs?.commands.map((c) => c.name)).toEqual(["unit", "lint"]);
    expect(evaluatorInputs(gateFacts({ evidence: [refused] }), task, config)?.commands).toEqual([]);
  });

  it("stays bounded for a 3,000-file pull request with a 64 KiB body and long outputs, and the evaluator sees what it saw before", () => {
    const evidence = commandEvidence([0, 0, 0]);
    const record = evidence.record;
    if (!record) throw new Error("a record expected");
    const tail = "y".repeat(64 * 1024);
    for (const c of record.commands) c.output.tail = tail;
    const files = Array.from({ length: 3_000 }, (_, i) => ({
      filename: `packages/pkg-${i % 37}/src/deeply/nested/module-${i}.ts`,
      previous_filename: null,
      status: "modified",
    }));
    const facts = gateFacts({
      evidence: [evidence],
      changed_files: files,
      trace,
    });
    const body = "b".repeat(64 * 1024);
    const inputs = evaluatorInputs(facts, { title: "t".repeat(256), body }, config);
    if (!inputs) throw new Error("inputs expected");
    // The payload as the queue stores it.
    const payload = GATE_JOBS.evaluator.payload.parse({
      repository: "octo/widgets",
      installation: 1,
      number: 7,
      head_sha: facts.pull_request.head_sha,
      tree_sha: "4".repeat(40),
      config_digest: "d".repeat(64),
      inputs,
    });
    const bytes = Buffer.byteLength(JSON.stringify(payload));
    // 64 KiB of body, 3,000 names of about 50 characters, three tails cut to a share of the budget.
    expect(bytes).toBeLessThan(64 * 1024 + 3_000 * 100 + 3 * 4_000 + 20_000);
    expect(inputs.body).toBe(body);
    expect(inputs.changed_files).toHaveLength(3_000);
    // The bundle built from the cut tails is the one the full tails give: the cut is still said.
    const limit = config.budgets.evaluator_bundle_tokens;
    const bundle = buildBundle({
      repository: "octo/widgets",
      pullNumber: 7,
      baseSha: inputs.base_sha,
      headSha: facts.pull_request.head_sha,
      treeSha: "4".repeat(40),
      title: inputs.title,
      body: inputs.body,
      issues: [],
      instructions: [],
      rubric: "",
      minScore: 0.8,
      files: [],
      unlisted: inputs.changed_files,
      commands: inputs.commands,
      handoff: null,
      trace: inputs.trace,
      tokenLimit: limit,
    });
    const shown = Math.min(Math.floor(limit * 0.02 * 3), Math.floor((limit * 0.08 * 3) / 3));
    expect(bundle.commands.map((c) => c.tail)).toEqual([1, 2, 3].map(() => tail.slice(-shown)));
    expect(bundle.budget.cuts).toContain(
      `the output tail of "unit" cut to its last ${shown} characters`,
    );
  });

  it("the handoff file where the pass read it, whatever the job's own rule would say; none where it read none", () => {
    const at = (overrides: Parameters<typeof gateFacts>[0]) =>
      evaluatorInputs(gateFacts(overrides), task, config)?.handoff_sha;
    // Untouched, and no rule requires it: the pass read no file, though the merge base has one.
    expect(at({ handoff: handoffFacts({ read_at_sha: null }) })).toBeNull();
    expect(at({ handoff: handoffFacts({ read_at_sha: BASE }) })).toBe(BASE);
    // Touched: the pass read it at the head.
    expect(
      at({
        changed_files: [
          { filename: ".agate/handoff.md", previous_filename: null, status: "added" },
        ],
        handoff: handoffFacts({ read_at_sha: HEAD }),
      }),
    ).toBe(HEAD);
    // Facts stored before agate kept where it read: none.
    expect(at({ handoff: handoffFacts() })).toBeNull();
  });

  it("a payload whose inputs say where to read the handoff file by rule (an earlier agate's) is read without inputs", () => {
    const inputs = evaluatorInputs(gateFacts(), task, config);
    if (!inputs) throw new Error("inputs expected");
    const { handoff_sha: _, ...rest } = inputs;
    const payload = (extra: Record<string, unknown>) =>
      GATE_JOBS.evaluator.payload.parse({
        repository: "octo/widgets",
        installation: 1,
        number: 7,
        head_sha: HEAD,
        tree_sha: "4".repeat(40),
        config_digest: "d".repeat(64),
        ...extra,
      });
    expect(payload({ inputs: { ...rest, handoff_at: "merge_base" } }).inputs).toBeNull();
    expect(payload({ inputs }).inputs).toEqual(inputs);
    expect(() => payload({ inputs: { ...rest, handoff_at: "elsewhere" } })).toThrow();
  });

  it("nothing without facts read to the end (no handoff facts)", () => {
    expect(evaluatorInputs(gateFacts({ handoff: null }), task, config)).toBeNull();
  });
});
