import { describe, expect, it } from "vitest";
import type { AcceptanceRecord } from "../../schemas/acceptance-record.js";
import { DIGEST, recordInput, SHA_A, SHA_B, SHA_C, TREE_1 } from "../../test/support/store.js";
import { attemptsOf, priorRecordOf } from "./attempts.js";

const SHA_D = "9".repeat(40);
const TREE_2 = "8".repeat(40);

let id = 0;
/** A stored record of `head`; `exit` the one command's exit code. */
function stored(head: string, exit: number, overrides: Partial<AcceptanceRecord> = {}) {
  const input = recordInput({ head_sha: head });
  const [command] = input.commands;
  id += 1;
  return {
    ...input,
    commands: command ? [{ ...command, exit_code: exit }] : [],
    decision: { state: exit === 0 ? "accepted" : "rejected", reasons: [], head_tree_sha: TREE_1 },
    id,
    recorded_at: input.decided_at,
    stale: null,
    ...overrides,
  } as AcceptanceRecord;
}

describe("the pull request's records as the decision reads them", () => {
  it("a prior record: what was decided where, under which config and agate version", () => {
    const record = stored(SHA_A, 1);
    expect(priorRecordOf(record)).toEqual({
      id: record.id,
      head_sha: SHA_A,
      base_sha: SHA_C,
      tree_sha: TREE_1,
      state: "rejected",
      config_digest: DIGEST,
      agate_version: "0.1.0",
      decided_at: record.decided_at,
      stale: null,
    });
  });

  it("an attempt is a head with a believed record, other than the head being decided; its newest record counts", () => {
    const failed = stored(SHA_A, 1);
    const fixed = stored(SHA_A, 0);
    const refused = stored(SHA_B, 1, {
      provenance: {
        ...recordInput().provenance,
        verified: false,
      } as AcceptanceRecord["provenance"],
    });
    const waiting = stored(SHA_D, 0, { commands: [] });
    const current = stored(SHA_C, 1);
    const attempts = attemptsOf([failed, fixed, refused, waiting, current], SHA_C);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ head_sha: SHA_A, failures: [], passed: ["test"] });
  });

  it("a head that replayed an earlier failure is an attempt with that failure, naming it", () => {
    const failed = stored(SHA_A, 1);
    // No believed record of its own: its tree was the failed one's, so it was not graded again.
    const replayed = stored(SHA_B, 1, {
      commands: [],
      provenance: null,
      decision: { state: "rejected", reasons: [], head_tree_sha: TREE_1, replayed_from: SHA_A },
    });
    // Replaying a head that is no attempt is none either.
    const orphan = stored(SHA_D, 1, {
      commands: [],
      provenance: null,
      decision: { state: "rejected", reasons: [], head_tree_sha: TREE_2, replayed_from: SHA_C },
    });
    const [first, second, ...rest] = attemptsOf([failed, replayed, orphan], SHA_C);
    expect(rest).toEqual([]);
    expect(second).toMatchObject({
      head_sha: SHA_B,
      replayed_from: SHA_A,
      failures: first?.failures,
      passed: [],
    });
    expect(first?.failures.map((f) => f.name)).toEqual(["test"]);
  });
});
