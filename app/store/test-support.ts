/** Test helpers for the store's tests: temp directories, a frozen clock, and valid fixtures. */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { AcceptanceRecordInput } from "../../schemas/acceptance-record.js";
import type { HandoffEntryDraft } from "../../schemas/handoff-entry.js";
import type { Delivery } from "../../schemas/store.js";

export const SHA_A = "a".repeat(40);
export const SHA_B = "b".repeat(40);
export const SHA_C = "c".repeat(40);
export const TREE_1 = "1".repeat(40);
export const DIGEST = "d".repeat(64);

/** A fresh directory per test; call the returned cleanup in afterEach. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "agate-store-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Registers a fresh directory per test and returns the path of a database file inside it. */
export function useTempDatabaseFile(): () => string {
  let current: { dir: string; cleanup: () => void } | undefined;
  beforeEach(() => {
    current = tempDir();
  });
  afterEach(() => current?.cleanup());
  return () => {
    if (!current) throw new Error("useTempDatabaseFile's path is only there inside a test");
    return join(current.dir, "agate.db");
  };
}

export interface TestClock {
  now: () => Date;
  advance: (ms: number) => void;
}

export function frozenClock(start = "2025-01-01T00:00:00.000Z"): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
  };
}

export function recordInput(overrides: Partial<AcceptanceRecordInput> = {}): AcceptanceRecordInput {
  return {
    repository: "octo/repo",
    pull_number: 12,
    head_sha: SHA_A,
    base_sha: SHA_C,
    tested: {
      sha: SHA_A,
      tree_sha: TREE_1,
      parents: [SHA_C],
      clean: true,
      dirty_digest: null,
    },
    commands: [
      {
        name: "test",
        run: "npm test",
        exit_code: 0,
        signal: null,
        timed_out: false,
        started_at: "2025-01-01T00:00:00.000Z",
        duration_ms: 1234,
        output: {
          bytes: 10,
          sha256: DIGEST,
          normalized_sha256: DIGEST,
          tail: "ok\n",
          truncated: false,
        },
      },
    ],
    provenance: {
      workflow: {
        run_id: 1,
        run_attempt: 1,
        workflow_ref: "octo/repo/.github/workflows/agate.yml@refs/heads/main",
        job: "agate",
        event_name: "pull_request",
      },
      verified: true,
      refused_reason: null,
    },
    runner: { os: "Linux", arch: "X64", image_version: null, node_version: "v20.0.0" },
    grader: {
      agate_version: "0.1.0",
      config_digest: DIGEST,
      evaluator: { kind: "llm", provider: "openai", model: "gpt", prompt_version: "1" },
    },
    verdict: { complete: true, score: 0.9, missing: [], evidence: ["tests pass"] },
    verdict_by: "evaluator",
    handoff: null,
    override: null,
    decision: { state: "accepted", reasons: ["all required commands passed"] },
    decided_at: "2025-01-01T00:00:05.000Z",
    ...overrides,
  };
}

export function handoffDraft(overrides: Partial<HandoffEntryDraft> = {}): HandoffEntryDraft {
  return {
    repository: "octo/repo",
    issue_number: 7,
    fields: { project: "agate", question: "which port?", tried: "8080", needed: "the port" },
    state: "open",
    owner: null,
    agent_waiting: true,
    follow_ups: 0,
    claim_expiries: 0,
    escalation_reason: null,
    opened_at: "2025-01-01T00:00:00.000Z",
    state_changed_at: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function delivery(id: string, payload: string, event = "pull_request"): Delivery {
  return {
    id,
    event,
    action: "opened",
    payload_sha256: createHash("sha256").update(payload).digest("hex"),
    received_at: "2025-01-01T00:00:00.000Z",
  };
}
