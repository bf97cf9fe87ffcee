import type { HandoffCheck } from "../../../schemas/acceptance-record.js";
import type { CommandRecord } from "../../../schemas/command-record.js";
import type { Config } from "../../../schemas/config.js";
import type { GateFacts } from "../../../schemas/gate.js";
import { handoffRequiredBy } from "../../handoff/required.js";
import { AGATE_CLI, verifyHandoff } from "../../handoff/verify.js";
import { counted } from "../../markdown.js";
import { type Part, partOf } from "./part.js";

/**
 * The handoff file: required by the rules of handoff.required_when, present at the head, true to
 * the pull request and to agate's command record of the head, and saying status: ready.
 */
export function handoffRequirement(
  facts: GateFacts,
  config: Config,
  record: CommandRecord | null,
): Part & { check: HandoffCheck | null } {
  const path = config.handoff.path;
  const req = partOf("handoff", "handoff file");
  if (!facts.handoff) return { ...req("pass", "not read"), check: null };
  const requiredBy = handoffRequiredBy(config.handoff.required_when, {
    labels: facts.pull_request.labels,
    facts: facts.handoff,
  });
  const check = verifyHandoff({
    path,
    requiredBy,
    facts: facts.handoff,
    headRef: facts.pull_request.head_ref,
    changedFiles: facts.changed_files,
    record,
  });
  const why = `required by ${requiredBy.join(", ")}`;
  if (requiredBy.length === 0) {
    const note = check.blob_sha
      ? check.findings.length > 0
        ? `; ${path} is there with ${counted(check.findings.length, "finding")} (informational)`
        : `; ${path} is there and agrees with the pull request`
      : "";
    return {
      ...req("pass", `not required: no rule of handoff.required_when applies${note}`),
      check,
    };
  }
  if (!check.blob_sha) {
    return {
      ...req("fail", `${why}, but ${path} is not at the head commit`, [
        `Write ${path} and commit it: \`${AGATE_CLI} run\` then \`${AGATE_CLI} handoff --task "<the task>"\` fill it from the branch (${why})`,
      ]),
      check,
    };
  }
  if (check.findings.length > 0) {
    return {
      ...req(
        "fail",
        `${path} does not agree with the pull request (${why}): ${counted(check.findings.length, "finding")}`,
        check.findings.map((f) => `Fix ${path}: ${f}`),
      ),
      check,
    };
  }
  if (!record) {
    return {
      ...req(
        "waiting",
        `${path} agrees so far (${why}); its last command is checked against agate's command record of the head when it is in`,
      ),
      check,
    };
  }
  if (check.status === "blocked") {
    return {
      ...req("blocked", `${path} says status: blocked; its next step and open items say on what`, [
        `Resolve what ${path} says it is blocked on (its next step and open items), then set status: ready`,
      ]),
      check,
    };
  }
  if (check.status !== "ready") {
    return {
      ...req(
        "waiting",
        `${path} says status: ${check.status ?? "unknown"}; set status: ready when the task is done`,
        [`Set status: ready in ${path} once the task is done`],
      ),
      check,
    };
  }
  return {
    ...req("pass", `${path} is present, valid and true to the pull request (${why})`),
    check,
  };
}
