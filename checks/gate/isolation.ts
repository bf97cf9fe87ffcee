import type { CommandRecord } from "../../schemas/command-record.js";
import type { Config } from "../../schemas/config.js";
import { recordPassed } from "../command-results.js";
import { codeSpan } from "../markdown.js";
import { overrideCommand } from "./listing.js";

/**
 * Whether a record's passing word can be believed, given how its commands ran. Code that shares
 * agate's user (or has root) can reach into agate and make the record say anything, "isolated"
 * included, so the record's own account decides nothing by itself: a command the base config marks
 * privileged ran as agate's user whatever the record says, and under `evidence.isolation: required`
 * the Action refuses to run the commands unisolated at all. A failing record is believed however
 * it was made: code forging a record would not forge a failure.
 */
export function isolationProblem(
  record: CommandRecord,
  config: Config,
  target: { kind: "pull_request" | "merge_group"; headSha: string },
): string | null {
  if (!recordPassed(record)) return null;
  const privileged = config.commands.filter((c) => c.privileged).map((c) => codeSpan(c.name, 80));
  if (privileged.length > 0) {
    const accept =
      target.kind === "pull_request"
        ? `a maintainer who has read the change can accept this exact commit with \`${overrideCommand(target.headSha)}\``
        : "nobody can accept a merge group by hand, so the merge queue needs a config without privileged commands";
    return `${privileged.join(", ")} ${privileged.length === 1 ? "is" : "are"} marked privileged (commands[].privileged) and ran as agate's own user, so the code under test could have written this record itself; ${accept}`;
  }
  if (config.evidence.isolation === "shared-allowed") return null;
  const isolation = record.isolation;
  if (!isolation) {
    return `it was made by agate ${codeSpan(record.grader.agate_version, 40)}, which ran the commands as its own user, so the code under test could have written it (evidence.isolation: required); re-run the job with a current agate`;
  }
  if (isolation.mode === "shared") {
    return `the commands ran as agate's own user ${codeSpan(isolation.user, 60)} (${codeSpan(isolation.reason ?? "no reason given", 300)}), so the code under test could have written this record; the base config requires a user of their own (evidence.isolation: required): run the job on a GitHub-hosted runner or give the runner's user passwordless sudo, or set evidence.isolation: shared-allowed to accept such records`;
  }
  return null;
}

/** One line for the summary: how the commands of a believed record ran, in a maintainer's words. */
export function isolationLine(record: CommandRecord): string {
  const privileged = record.commands.filter((c) => c.privileged).map((c) => codeSpan(c.name, 80));
  const privilegedNote =
    privileged.length > 0
      ? ` **${privileged.join(", ")} ran as agate's own user** (commands[].privileged) and could have changed this record.`
      : "";
  const isolation = record.isolation;
  if (!isolation) {
    return `**Not isolated:** agate ${codeSpan(record.grader.agate_version, 40)} ran the commands as its own user, so the code under test could have changed this record.${privilegedNote}`;
  }
  if (isolation.mode === "shared") {
    return `**Not isolated:** the commands ran as agate's own user ${codeSpan(isolation.user, 60)} (${codeSpan(isolation.reason ?? "no reason given", 300)}), so the code under test could have changed this record; evidence.isolation: shared-allowed accepts that. ${SWEPT[isolation.swept]}${privilegedNote}`;
  }
  return `Isolated: the commands ran as ${codeSpan(isolation.user, 60)}, a user of their own without sudo, and ${isolation.swept === "user" ? "none of its processes outlived a command." : SWEPT[isolation.swept].toLowerCase()}${privilegedNote}`;
}

/** What the record says was killed after each command, in the summary's words. */
const SWEPT: Record<NonNullable<CommandRecord["isolation"]>["swept"], string> = {
  user: "Every process of theirs was killed after each command.",
  "process-group":
    "Each command's process group was killed after it (a process that left it with setsid was not seen).",
};
