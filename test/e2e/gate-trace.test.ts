/**
 * The agent's trace reaches the App (issue 14, App half): the committed Action bundle reads the
 * agent's trace named by the `trace` input and uploads its report as `agate-trace-report-attempt-n`
 * through the real artifact client; the App's reader (app/gate/trace-report.ts) reads it beside the
 * command record the App believed, from the same run and attempt, and the `agate` summary and the
 * evaluator's bundle show it. The listing of a run's trace-report artifacts is the adapter call the
 * App needs (GitHubAdapter.traceReportArtifacts, requested); here it is made the same way through
 * the App's own installation client, and the download is the adapter's own.
 */
import { describe, expect, it } from "vitest";
import {
  readTraceFact,
  type TraceArtifactReader,
  TraceReportCache,
  traceReaderOf,
} from "../../app/gate/trace-report.js";
import { GitHubAdapter } from "../../app/github/adapter.js";
import { buildBundle, bundleTrace } from "../../checks/evaluator/bundle.js";
import { decideGate } from "../../checks/gate/decide.js";
import { judgedFacts } from "../../checks/gate/evidence.js";
import { renderGateSummary } from "../../checks/gate/render.js";
import { type GateFacts, gateFactsSchema } from "../../schemas/gate.js";
import {
  TRACE_REPORT_ARTIFACT_PREFIX,
  TRACE_REPORT_FILE_NAME,
  traceReportArtifactName,
} from "../../schemas/trace.js";
import { bundleInput } from "../support/bundle-input.js";
import { uploadFromJob } from "../support/forged-record.js";
import { useGateHarness } from "../support/gate-harness.js";

const gate = useGateHarness();

const CONFIG = 'version: 1\ncommands:\n  - name: test\n    run: "true"\n';

/** A Claude Code session stuck on one failing test: the same call, the same failure, 12 times. */
function stuckSession(): string {
  const lines: unknown[] = [
    { type: "user", message: { role: "user", content: "Fix it." }, uuid: "u0", sessionId: "s1" },
  ];
  for (let n = 1; n <= 12; n++) {
    lines.push(
      {
        type: "assistant",
        message: {
          id: `msg_${n}`,
          role: "assistant",
          content: [
            { type: "tool_use", id: `t${n}`, name: "Bash", input: { command: "npm test" } },
          ],
          usage: { input_tokens: 1000, output_tokens: 20 },
        },
        uuid: `a${n}`,
        sessionId: "s1",
      },
      {
        type: "user",
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: `t${n}`,
              content: `Exit code 1\n1 failing (${n}1 ms)`,
              is_error: true,
            },
          ],
        },
        uuid: `r${n}`,
        sessionId: "s1",
      },
    );
  }
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

/**
 * The App's adapter as a trace reader; until it lists trace-report artifacts itself, the same
 * listing made through the App's installation client.
 */
async function appReader(repo: string): Promise<TraceArtifactReader> {
  const deps = gate.deps();
  const octokit = await deps.octokitFor(gate.sim.installationId);
  const fullName = `${gate.sim.owner}/${repo}`;
  const adapter = new GitHubAdapter(octokit, fullName, await deps.appSlug());
  const own = traceReaderOf(adapter);
  if (own) return own;
  return {
    traceReportArtifacts: async (runId) => {
      const { data } = await octokit.rest.actions.listWorkflowRunArtifacts({
        owner: gate.sim.owner,
        repo,
        run_id: runId,
        per_page: 100,
      });
      return data.artifacts
        .filter((a) => a.name.startsWith(TRACE_REPORT_ARTIFACT_PREFIX))
        .map((a) => ({
          id: a.id,
          name: a.name,
          size_in_bytes: a.size_in_bytes,
          expired: a.expired,
        }));
    },
    artifactZip: (id, max) => adapter.artifactZip(id, max),
  };
}

/** The facts of the App's newest stored decision on the head. */
async function decidedFacts(repo: string, number: number, head: string): Promise<GateFacts> {
  const [last] = await gate.store.listAudit({
    kind: "gate.decision",
    subject: `${gate.sim.owner}/${repo}#${number}@${head}`,
    order: "desc",
    limit: 1,
  });
  return gateFactsSchema.parse(last?.facts);
}

/** An agent pull request whose session (`.agent/session.jsonl`) repeats one call: stalled. */
const stuckPullRequest = (repo: string) =>
  gate.agentPullRequest(
    repo,
    { "a.txt": "a\n", ".agent/session.jsonl": stuckSession() },
    { config: CONFIG },
  );

/** The trace fact the App reads for the run the decision believed, as the evaluator gets it. */
const traceOf = async (repo: string, facts: GateFacts) =>
  readTraceFact(await appReader(repo), new TraceReportCache(), facts.evidence_run);

describe("the agent's trace, from the Action to the App", { timeout: 120_000 }, () => {
  it("the report the Action uploads is read beside the believed record, shown in the summary and given to the evaluator; it decides nothing", async () => {
    const repo = "traced";
    const { head, number, branch } = await stuckPullRequest(repo);
    const run = await gate.ci(repo, branch, head, { inputs: { trace: ".agent/session.jsonl" } });
    expect(run.summary).toContain("Agent trace `.agent/session.jsonl`: busy without progress");
    expect(gate.gateCheck(repo, head)?.conclusion).toBe("success");

    const facts = await decidedFacts(repo, number, head);
    const trace = await traceOf(repo, facts);
    expect(trace).toMatchObject({
      run_id: run.runId,
      run_attempt: run.attempt,
      artifact: traceReportArtifactName(run.attempt),
      error: null,
    });
    const [outcome] = trace?.traces ?? [];
    expect(outcome?.source).toBe(".agent/session.jsonl");
    expect(outcome?.report?.stalled).toBe(true);
    // The verdict rests on the calls without a milestone; the loop is shown beside it.
    expect(outcome?.report?.findings.map((f) => [f.kind, f.from_step])).toEqual([
      ["no-milestone", 1],
      ["identical-streak", 1],
    ]);

    // Once the adapter lists them, the App's own pass read the same reports.
    const adapter = new GitHubAdapter(
      await gate.deps().octokitFor(gate.sim.installationId),
      `${gate.sim.owner}/${repo}`,
      "agate",
    );
    const live = traceReaderOf(adapter) !== null;
    expect(facts.trace ?? null).toEqual(live ? trace : null);
    expect(gate.gateCheck(repo, head)?.output?.summary?.includes("### Agent trace")).toBe(live);

    const withTrace = { ...facts, trace };
    const decision = decideGate(withTrace);
    // The stall is reported, never decided on: the same decision as without it.
    expect(decision).toEqual(decideGate(facts));
    expect(decision.state).toBe("accepted");
    const summary = renderGateSummary(decision, withTrace);
    expect(summary).toContain(`1 trace from run ${run.runId}, attempt ${run.attempt}`);
    expect(summary).toMatch(
      /\| 1–\d+ \(`line \d+`\) \| the same call again and again \| evidence \| /,
    );

    const bundle = buildBundle(
      bundleInput({
        repository: `${gate.sim.owner}/${repo}`,
        pullNumber: number,
        baseSha: facts.pull_request.base_sha,
        headSha: head,
        treeSha: facts.head_tree_sha ?? head,
        trace: bundleTrace(trace),
      }),
    );
    expect(bundle.agent_trace?.traces[0]?.stalled).toBe(true);
  });

  it("attack: beside a record the decision refuses, no trace report is downloaded or shown", async () => {
    const repo = "refused-trace";
    const { head, number, branch } = await stuckPullRequest(repo);
    // The runner says the agate step failed, the record says every command passed: refused.
    await gate.ci(repo, branch, head, {
      inputs: { trace: ".agent/session.jsonl" },
      stepConclusion: "failure",
    });
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    const { github, facts: gathered } = await gate.gather(repo, number);
    const facts = judgedFacts(gathered);
    expect(facts.evidence[0]?.refused).toMatch(/the runner says step agate failure/);
    expect(facts.trace ?? null).toBeNull();
    // The record's zip is read again by no one (the cache has it); the trace's is never read.
    expect(github.calls.get("actions/download-artifact") ?? 0).toBe(0);
    expect((await decidedFacts(repo, number, head)).trace ?? null).toBeNull();
  });

  it("attack: a report the job's code uploads first under the attempt's name is what is read, and still decides nothing", async () => {
    const repo = "forged-trace";
    const { head, number, branch } = await stuckPullRequest(repo);
    const run = await gate.ci(repo, branch, head, {
      inputs: { trace: ".agent/session.jsonl" },
      beforeAgate: async (job) => {
        await uploadFromJob(
          gate.sim,
          repo,
          job,
          { [TRACE_REPORT_FILE_NAME]: "[]" },
          traceReportArtifactName(job.attempt),
        );
      },
    });
    // agate's own upload was refused (the name was taken); its job summary says so.
    expect(run.summary).toMatch(/The trace reports are not uploaded: /);
    const facts = await decidedFacts(repo, number, head);
    const trace = await traceOf(repo, facts);
    // The forged report hides the stall: agent-influenced, as documented; the gate is unchanged.
    expect(trace?.traces).toEqual([]);
    expect(decideGate({ ...facts, trace })).toEqual(decideGate(facts));
  });
});
