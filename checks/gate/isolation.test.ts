import { describe, expect, it } from "vitest";
import type { Isolation } from "../../schemas/command-record.js";
import {
  CONFIG_TEXT,
  commandRecord,
  evidenceRun,
  HEAD,
  loadedConfig,
} from "../../test/support/gate-facts.js";
import { provenanceInput } from "../../test/support/provenance-input.js";
import { isolationLine, isolationProblem } from "./isolation.js";
import { verifyProvenance } from "./provenance.js";

const PR = { kind: "pull_request", headSha: HEAD } as const;
const SHARED: Isolation = {
  mode: "shared",
  user: "runner",
  uid: 1001,
  reason: "the runner's user (runner) has no passwordless sudo",
  swept: "process-group",
};
const required = loadedConfig().config;
const sharedAllowed = loadedConfig(`${CONFIG_TEXT}evidence:\n  isolation: shared-allowed\n`).config;
const withPrivileged = loadedConfig(
  "version: 1\ncommands:\n  - { name: unit, run: npm test }\n  - { name: lint, run: npm run lint, privileged: true }\n",
).config;

describe("isolationProblem: how the commands ran decides whether a passing record counts", () => {
  it("believes a record whose commands ran as a user of their own", () => {
    expect(isolationProblem(commandRecord(), required, PR)).toBeNull();
  });

  it("refuses a passing record made as agate's user under evidence.isolation: required, saying what to do", () => {
    const problem = isolationProblem(commandRecord([0, 0], { isolation: SHARED }), required, PR);
    expect(problem).toContain(
      "the commands ran as agate's own user `runner` (`the runner's user (runner) has no passwordless sudo`), so the code under test could have written this record",
    );
    expect(problem).toContain("set evidence.isolation: shared-allowed");
  });

  it("refuses a passing record of an agate that did not say (it ran the commands as its own user)", () => {
    const old = commandRecord([0, 0], { isolation: undefined });
    expect(isolationProblem(old, required, PR)).toContain(
      "it was made by agate `0.1.0`, which ran the commands as its own user",
    );
  });

  it("believes both under evidence.isolation: shared-allowed", () => {
    for (const isolation of [SHARED, undefined]) {
      expect(isolationProblem(commandRecord([0, 0], { isolation }), sharedAllowed, PR)).toBeNull();
    }
  });

  it("believes a failing record however it was made: nobody forges a failure", () => {
    expect(isolationProblem(commandRecord([0, 1], { isolation: SHARED }), required, PR)).toBeNull();
    expect(isolationProblem(commandRecord([1, 0]), withPrivileged, PR)).toBeNull();
  });

  it("refuses a passing record with a privileged command whatever the record says, pointing at /agate accept", () => {
    expect(isolationProblem(commandRecord(), withPrivileged, PR)).toBe(
      `\`lint\` is marked privileged (commands[].privileged) and ran as agate's own user, so the code under test could have written this record itself; a maintainer who has read the change can accept this exact commit with \`/agate accept ${HEAD} <why this commit may merge>\``,
    );
  });

  it("says a merge group with a privileged command cannot be accepted by hand", () => {
    expect(
      isolationProblem(commandRecord(), withPrivileged, { kind: "merge_group", headSha: HEAD }),
    ).toContain("nobody can accept a merge group by hand");
  });

  it("refuses a shared record under evidence.isolation: required, through verifyProvenance (its place last: provenance.test.ts)", () => {
    const record = commandRecord([0, 0], { isolation: SHARED });
    const verdict = verifyProvenance(
      provenanceInput({ config: required, run: evidenceRun(record) }),
    );
    expect(verdict).toMatchObject({ status: "refused", record });
    expect(verdict.status === "refused" && verdict.reason).toContain(
      "evidence.isolation: required",
    );
  });
});

describe("isolationLine: the summary says how the commands ran", () => {
  it("isolated, in one plain line", () => {
    expect(isolationLine(commandRecord())).toBe(
      "Isolated: the commands ran as `agate-0e31a4d2e9`, a user of their own without sudo, and none of its processes outlived a command.",
    );
  });

  it("shared, with the reason and what it means", () => {
    expect(isolationLine(commandRecord([0, 0], { isolation: SHARED }))).toBe(
      "**Not isolated:** the commands ran as agate's own user `runner` (`the runner's user (runner) has no passwordless sudo`), so the code under test could have changed this record; evidence.isolation: shared-allowed accepts that. Each command's process group was killed after it (a process that left it with setsid was not seen).",
    );
    expect(isolationLine(commandRecord([0, 0], { isolation: undefined }))).toContain(
      "**Not isolated:** agate `0.1.0` ran the commands as its own user",
    );
  });

  it("says what was killed after each command as the record says it, not as its mode implies", () => {
    const record = commandRecord();
    if (record.isolation) record.isolation.swept = "process-group";
    expect(isolationLine(record)).toContain(
      "a user of their own without sudo, and each command's process group was killed after it",
    );
    expect(isolationLine(record)).not.toContain("none of its processes outlived");
  });

  it("names a privileged command", () => {
    const record = commandRecord();
    const [, lint] = record.commands;
    if (lint) lint.privileged = true;
    expect(isolationLine(record)).toContain(
      "**`lint` ran as agate's own user** (commands[].privileged) and could have changed this record.",
    );
  });
});
