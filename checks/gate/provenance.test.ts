import { describe, expect, it } from "vitest";
import { type CommandRecord, recordArtifactName } from "../../schemas/command-record.js";
import type { EvidenceRunFact } from "../../schemas/gate.js";
import {
  BASE,
  commandRecord,
  EVIDENCE_WORKFLOW,
  evidenceRun,
  evidenceSource,
  HEAD,
  loadedConfig,
  MERGE,
  MERGE_TREE,
  TREE,
} from "../../test/support/gate-facts.js";
import { provenanceInput } from "../../test/support/provenance-input.js";
import { type ProvenanceInput, verifyProvenance } from "./provenance.js";

const { digest } = loadedConfig();
const input = provenanceInput;

/** An honest passing record, but for what it says about the commit it tested. */
const testedAs = (tested: Partial<CommandRecord["tested"]>) =>
  commandRecord([0, 0], { tested: { ...commandRecord().tested, ...tested } });

/** The evidence run with one part replaced. */
function run(record: CommandRecord | null, overrides: Partial<EvidenceRunFact> = {}) {
  return evidenceRun(record, "success", overrides);
}

/** The honest run, with one record artifact named for each of these attempts. */
const withRecordsNamed = (...attempts: number[]) =>
  run(commandRecord(), {
    artifacts: attempts.map((attempt, i) => ({
      id: 700 + i,
      name: recordArtifactName(attempt),
      size_in_bytes: 9,
      expired: false,
    })),
  });

const refusal = (i: ProvenanceInput) => {
  const verdict = verifyProvenance(i);
  return verdict.status === "refused" ? verdict.reason : `not refused: ${verdict.status}`;
};

describe("verifyProvenance: a record is believed only when GitHub's own data agrees", () => {
  it("believes a passing record of the pinned workflow, job and step on GitHub's test merge commit", () => {
    expect(verifyProvenance(input())).toEqual({ status: "verified", record: commandRecord() });
  });

  it("believes a failing record whose step failed: that is a rejection, not tampering", () => {
    const failing = commandRecord([0, 1]);
    expect(verifyProvenance(input({ run: evidenceRun(failing, "failure") })).status).toBe(
      "verified",
    );
  });

  it("believes a record made on the head itself, against GitHub's tree of the head", () => {
    const onHead = testedAs({ sha: HEAD, tree_sha: TREE });
    const verdict = verifyProvenance(
      input({
        run: run(onHead, { tested_commit: { sha: HEAD, tree_sha: TREE, parents: [BASE] } }),
      }),
    );
    expect(verdict.status).toBe("verified");
  });

  describe("the run is of the pinned workflow, on pull_request, for the head", () => {
    it("refuses a run of another workflow file", () => {
      const other = evidenceRun(commandRecord());
      other.run.path = ".github/workflows/other.yml";
      expect(refusal(input({ run: other }))).toBe(
        `run 99 is of \`.github/workflows/other.yml\`, not of the evidence workflow ${EVIDENCE_WORKFLOW} (evidence.workflow)`,
      );
    });

    it.each(["push", "workflow_dispatch", "pull_request_target"])(
      "refuses a run on %s",
      (event) => {
        const other = evidenceRun(commandRecord());
        other.run.event = event;
        expect(refusal(input({ run: other }))).toBe(
          `run 99 ran on ${event}; evidence counts only from a pull_request run of ${EVIDENCE_WORKFLOW}`,
        );
      },
    );

    it("refuses a run for another head", () => {
      const other = evidenceRun(commandRecord());
      other.run.head_sha = "9".repeat(40);
      expect(refusal(input({ run: other }))).toBe(
        "run 99 ran for 9999999, not for the head 1111111",
      );
    });
  });

  describe("the run was made for this pull request on its current base (issue 26)", () => {
    const listing = (...pulls: [number, string][]) => {
      const other = evidenceRun(commandRecord());
      other.run.pull_requests = pulls.map(([number, base_ref]) => ({
        number,
        base_ref,
        base_sha: BASE,
      }));
      return other;
    };

    it("refuses a run made while the pull request targeted another branch: that branch's workflow ran", () => {
      expect(refusal(input({ run: listing([7, "evil"]) }))).toBe(
        "run 99 was made while this pull request targeted `evil`, so it ran that branch's workflow, not the one of `main`: a run counts only for the base it ran for; push a new commit so that a run is made for `main`",
      );
    });

    it("refuses a run made for other pull requests only", () => {
      expect(refusal(input({ run: listing([8, "main"], [9, "evil"]) }))).toBe(
        "run 99 was made for #8, #9, not for this pull request",
      );
    });

    it("refuses a run of this repository's head that lists no pull request: its base is unknown", () => {
      expect(refusal(input({ run: listing() }))).toBe(
        "GitHub lists no pull request on run 99, so the base it was made for is unknown; push a new commit so that a run is made for this pull request into `main`",
      );
    });

    it("believes a fork's run, which GitHub never lists pull requests on: the events name its base", () => {
      const fork = listing();
      fork.run.head_repository = "outsider/widgets";
      expect(verifyProvenance(input({ run: fork })).status).toBe("verified");
    });

    it("believes a run listing this pull request on its base beside another one (a shared head is blocked apart)", () => {
      expect(verifyProvenance(input({ run: listing([8, "main"], [7, "main"]) })).status).toBe(
        "verified",
      );
    });
  });

  describe("the workflow that ran is the base's", () => {
    it("is judged after the run itself: a run of another workflow is refused for that first", () => {
      const other = evidenceRun(commandRecord());
      other.run.path = ".github/workflows/other.yml";
      const both = input({ run: other, source: evidenceSource({ exists: false }) });
      expect(refusal(both)).toContain("run 99 is of `.github/workflows/other.yml`");
    });

    it("refuses when the base has no such workflow", () => {
      expect(refusal(input({ source: evidenceSource({ exists: false }) }))).toContain(
        `the base commit has no ${EVIDENCE_WORKFLOW}`,
      );
    });

    it("refuses when what the workflow uses cannot be read", () => {
      expect(refusal(input({ source: evidenceSource({ error: "x is not valid YAML" }) }))).toBe(
        `cannot tell what ${EVIDENCE_WORKFLOW} runs: x is not valid YAML`,
      );
    });

    it("refuses when the file list may have been cut", () => {
      const listing = { complete: false, reason: "it stops at 3000 files" };
      expect(refusal(input({ listing }))).toBe(
        `cannot confirm that the change leaves ${EVIDENCE_WORKFLOW} and what it uses alone: it stops at 3000 files`,
      );
    });

    it.each([
      [EVIDENCE_WORKFLOW, null, [], "`.github/workflows/agate.yml`"],
      [
        ".github/actions/setup/action.yml",
        null,
        [".github/actions/setup"],
        "`.github/actions/setup/action.yml`",
      ],
      [
        ".github/setup-moved/action.yml",
        ".github/actions/setup/action.yml",
        [".github/actions/setup"],
        "`.github/actions/setup/action.yml`",
      ],
      [
        ".github/workflows/reusable.yml",
        null,
        [".github/workflows/reusable.yml"],
        "`.github/workflows/reusable.yml`",
      ],
    ])(
      "refuses when the change modifies %s (renamed from %s) that the workflow is or uses",
      (filename, previous, uses, named) => {
        const verdict = refusal(
          input({
            source: evidenceSource({ uses }),
            changedFiles: [{ filename, previous_filename: previous, status: "modified" }],
          }),
        );
        expect(verdict).toBe(
          `the change modifies ${named}, which the evidence workflow is or uses, so the workflow that ran is not the base's; a maintainer can accept this exact commit instead`,
        );
      },
    );

    it("the repository's root action (`uses: ./`) covers every file", () => {
      const verdict = refusal(input({ source: evidenceSource({ uses: [""] }) }));
      expect(verdict).toContain("the change modifies `src/a.ts`");
    });
  });

  describe("the job, its attempt and its one record artifact", () => {
    it("waits while the run has not started the job, refuses when it finished without it", () => {
      const noJob = evidenceRun(commandRecord(), "success", { job: null });
      noJob.run.status = "in_progress";
      expect(verifyProvenance(input({ run: noJob }))).toMatchObject({
        status: "waiting",
        reason: "run 99 has not started job agate-commands yet",
      });
      noJob.run.status = "completed";
      expect(refusal(input({ run: noJob }))).toBe(
        "run 99 has no job named agate-commands (evidence.job); name the job that runs agate agate-commands",
      );
    });

    it("waits while the job runs", () => {
      const running = evidenceRun(null);
      if (running.job) running.job.status = "in_progress";
      expect(verifyProvenance(input({ run: running }))).toMatchObject({
        status: "waiting",
        reason: "job agate-commands of run 99 is in progress",
      });
    });

    it("refuses two record artifacts of one attempt, whatever they say", () => {
      const twice = withRecordsNamed(1, 1);
      expect(refusal(input({ run: twice }))).toBe(
        `run 99 has 2 artifacts named ${recordArtifactName(1)}: something besides agate's step uploaded a record in attempt 1, so neither is believed`,
      );
    });

    it("refuses a record named for an attempt the run has not had (uploaded ahead by a forger)", () => {
      const ahead = withRecordsNamed(1, 2);
      expect(refusal(input({ run: ahead }))).toBe(
        `run 99 has \`${recordArtifactName(2)}\`, named for an attempt it has not had: something in the job uploaded records of its own, so none is believed`,
      );
    });

    it("refuses a record of an older attempt: only the job's newest attempt counts", () => {
      const rerun = run(commandRecord());
      rerun.run.run_attempt = 2;
      if (rerun.job) rerun.job.run_attempt = 2;
      expect(refusal(input({ run: rerun }))).toBe(
        `job agate-commands of run 99 (attempt 2) finished success without uploading ${recordArtifactName(2)}; did the agate step run?`,
      );
    });

    it("refuses an expired artifact, and says why an unreadable one is unread", () => {
      const expired = run(null, {
        artifacts: [{ id: 700, name: recordArtifactName(1), size_in_bytes: 9, expired: true }],
      });
      expect(refusal(input({ run: expired }))).toBe(
        `artifact ${recordArtifactName(1)} of run 99 has expired; re-run the job`,
      );
      const broken = run(null, { record_error: "command-record.json is not JSON: oops" });
      expect(refusal(input({ run: broken }))).toBe("command-record.json is not JSON: oops");
    });
  });

  describe("the runner's word on the agate step agrees with the record", () => {
    it("refuses when the job has no step of that name", () => {
      const unnamed = run(commandRecord());
      if (unnamed.job) unnamed.job.steps = unnamed.job.steps.filter((s) => s.name !== "agate");
      expect(refusal(input({ run: unnamed }))).toBe(
        "job agate-commands has no step named agate (evidence.step); give the step that runs agate `name: agate`",
      );
    });

    it("refuses a passing record whose step failed (a forged record, agate killed)", () => {
      expect(refusal(input({ run: evidenceRun(commandRecord(), "failure") }))).toBe(
        "the record says every command passed, but the runner says step agate failure: something in the job interfered with agate",
      );
    });

    it("refuses a failing record whose step succeeded", () => {
      expect(refusal(input({ run: evidenceRun(commandRecord([1, 0]), "success") }))).toBe(
        "the record says a command failed, but the runner says step agate succeeded: the evidence workflow must not set fail-on-command-failure: false, or the job was interfered with",
      );
    });

    it("refuses a cancelled step either way", () => {
      expect(refusal(input({ run: evidenceRun(commandRecord(), "cancelled") }))).toContain(
        "the runner says step agate cancelled",
      );
    });
  });

  describe("what the record says about itself must match", () => {
    const withWorkflow = (change: Partial<NonNullable<CommandRecord["workflow"]>>) =>
      commandRecord([0, 0], {
        workflow: { ...(commandRecord().workflow ?? ({} as never)), ...change },
      });

    it.each([
      [
        "another run",
        withWorkflow({ run_id: 98 }),
        "it names run 98 attempt 1, but it was uploaded in run 99 attempt 1",
      ],
      [
        "another attempt",
        withWorkflow({ run_attempt: 3 }),
        "it names run 99 attempt 3, but it was uploaded in run 99 attempt 1",
      ],
      [
        "another event",
        withWorkflow({ event_name: "push" }),
        "it says event `push`, GitHub says run 99 ran on pull_request",
      ],
      [
        "another repository",
        commandRecord([0, 0], { repository: "octo/other" }),
        "it names repository `octo/other`, not octo/widgets",
      ],
      [
        "another head",
        commandRecord([0, 0], {
          pull_request: { number: 7, head_sha: "9".repeat(40), base_sha: BASE },
        }),
        "it was made for 9999999, not for the head 1111111",
      ],
      [
        "another config",
        commandRecord([0, 0], {
          grader: { agate_version: "0.1.0", config_digest: "f".repeat(64) },
        }),
        `it was made under config digest ffffffffffff, the base config's is ${digest.slice(0, 12)}`,
      ],
    ])("refuses a record naming %s", (_what, record, reason) => {
      expect(refusal(input({ run: run(record) }))).toBe(reason);
    });

    it("refuses commands that are not the base config's, in order", () => {
      const swapped = commandRecord();
      swapped.commands.reverse();
      expect(refusal(input({ run: run(swapped) }))).toBe(
        "its commands (`lint`, `unit`) are not the base config's (unit, lint), in order",
      );
      const renamed = commandRecord();
      if (renamed.commands[0]) renamed.commands[0].run = "true";
      expect(refusal(input({ run: run(renamed) }))).toContain("are not the base config's");
    });
  });

  describe("the tested commit is GitHub's", () => {
    it("is judged before how the commands ran: a fake commit is refused for that, not for its isolation", () => {
      const shared = commandRecord([0, 0], {
        tested: { ...commandRecord().tested, sha: "8".repeat(40) },
        isolation: {
          mode: "shared",
          user: "runner",
          uid: 1001,
          reason: "the runner's user (runner) has no passwordless sudo",
          swept: "process-group",
        },
      });
      expect(refusal(input({ run: run(shared) }))).toContain("it tested 8888888");
    });

    it("refuses a commit that is neither the head nor a test merge GitHub reported (a fake merge made in the job)", () => {
      const fake = testedAs({ sha: "8".repeat(40) });
      expect(refusal(input({ run: run(fake) }))).toBe(
        "it tested 8888888, which is neither the head 1111111 nor a test merge commit GitHub made for it (GitHub's test merge for it: 3333333); if the base branch moved since the run, re-run the workflow",
      );
    });

    it("refuses a merge commit GitHub does not have, or whose second parent is not the head", () => {
      expect(refusal(input({ run: run(commandRecord(), { tested_commit: null }) }))).toBe(
        "GitHub has no commit 3333333",
      );
      const wrongParents = run(commandRecord(), {
        tested_commit: { sha: MERGE, tree_sha: MERGE_TREE, parents: [BASE, "7".repeat(40)] },
      });
      expect(refusal(input({ run: wrongParents }))).toBe(
        "GitHub says 3333333 is not a merge of the head 1111111 (its parents: 2222222, 7777777)",
      );
    });

    it("refuses a tree other than GitHub's", () => {
      const lied = testedAs({ tree_sha: "5".repeat(40) });
      expect(refusal(input({ run: run(lied) }))).toBe(
        "it says the tree of 3333333 is 5555555, GitHub says 6666666",
      );
    });
  });

  describe("the commands ran on the commit as checked out", () => {
    it("refuses a work tree an earlier step changed", () => {
      const dirty = testedAs({ clean_before: false, dirty_before: ["src/a.ts"] });
      expect(refusal(input({ run: run(dirty) }))).toBe(
        "the work tree already differed from 3333333 before the first command (`src/a.ts`): an earlier step changed what was tested",
      );
    });

    it("refuses a command that changed files outside commands[].writes, believes one inside", () => {
      const record = commandRecord();
      if (record.commands[0]) {
        record.commands[0].changed_paths = ["coverage/lcov.info", "tests/acceptance.test.ts"];
        record.commands[0].changed_paths_count = 2;
      }
      expect(refusal(input({ run: run(record) }))).toBe(
        "command unit changed `coverage/lcov.info`, `tests/acceptance.test.ts`, outside what it may write (commands[].writes): it did not test the commit as it is",
      );
      const allowing = loadedConfig(
        "version: 1\ncommands:\n  - { name: unit, run: npm test, writes: ['coverage/**', 'tests/**'] }\n  - { name: lint, run: npm run lint }\n",
      );
      const allowed = commandRecord([0, 0], {
        grader: { agate_version: "0.1.0", config_digest: allowing.digest },
        commands: record.commands,
      });
      expect(
        verifyProvenance(
          input({ config: allowing.config, configDigest: allowing.digest, run: run(allowed) }),
        ).status,
      ).toBe("verified");
    });

    it("refuses when more paths changed than the record lists", () => {
      const record = commandRecord();
      if (record.commands[1]) {
        record.commands[1].changed_paths = [];
        record.commands[1].changed_paths_count = 101;
      }
      expect(refusal(input({ run: run(record) }))).toBe(
        "command lint changed 101 paths, more than the record lists, so they cannot all be checked against commands[].writes",
      );
    });
  });

  describe("a merge group", () => {
    const group = (record: CommandRecord) => {
      const fact = evidenceRun(record, "success", {
        tested_commit: { sha: HEAD, tree_sha: TREE, parents: [BASE] },
      });
      fact.run.event = "merge_group";
      return input({ target: { kind: "merge_group", headSha: HEAD }, run: fact });
    };
    const groupRecord = (overrides: Partial<CommandRecord> = {}) =>
      commandRecord([0, 0], {
        pull_request: null,
        merge_group: {
          head_ref: "refs/heads/gh-readonly-queue/main/pr-7",
          head_sha: HEAD,
          base_sha: BASE,
        },
        tested: { ...commandRecord().tested, sha: HEAD, tree_sha: TREE },
        workflow: { ...(commandRecord().workflow ?? ({} as never)), event_name: "merge_group" },
        ...overrides,
      });

    it("believes a merge_group run's record made on the group head", () => {
      expect(verifyProvenance(group(groupRecord())).status).toBe("verified");
    });

    it("refuses a pull request's record, and a test merge commit, on a group head", () => {
      expect(
        refusal(
          group(groupRecord({ pull_request: { number: 7, head_sha: HEAD, base_sha: BASE } })),
        ),
      ).toBe("it was made for a pull request, not for the merge group 1111111");
      const merged = groupRecord({ tested: commandRecord().tested });
      expect(refusal(group(merged))).toContain("it tested 3333333, which is neither the head");
    });
  });
});
