/**
 * Tests only: an agent, as its own process, one turn per run. It knows only what it is handed:
 * under `agate-gate loop`, the work in $AGATE_WORK_FILE and agate's status as JSON in
 * $AGATE_STATUS_FILE (schemas/gate-status.ts); under a plain shell loop, `status`'s text as its
 * argument. It never reads a check run, Markdown or the App's summary. From a failing command's
 * output it finds what to fix, fixes it and commits. Each turn appends one JSON line to
 * $AGENT_LOG: what it saw and what it did.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { statusReportSchema } from "../../schemas/gate-status.js";

const workFile = process.env.AGATE_WORK_FILE;
const work = workFile ? readFileSync(workFile, "utf8") : (process.argv[2] ?? "");
const statusFile = process.env.AGATE_STATUS_FILE ?? "";
const status = existsSync(statusFile)
  ? statusReportSchema.parse(JSON.parse(readFileSync(statusFile, "utf8")))
  : null;
const seen = {
  turn: Number(process.env.AGATE_TURN),
  state: status?.state ?? null,
  head: status?.head_sha ?? null,
  via: status ? "json" : "text",
  outputs: status?.gate?.failing_commands.map((c) => c.output_tail) ?? [work],
  work_has_markdown_tables: /^\|.*\|$/m.test(work),
};
const did: string[] = [];
for (const tail of seen.outputs) {
  // What the failing command said is missing, in its own words.
  const missing = /snapshot (\S+) is missing/.exec(tail)?.[1];
  if (missing) {
    mkdirSync(dirname(missing), { recursive: true });
    writeFileSync(missing, `${readFileSync("answer.txt", "utf8").trim()}\n`);
    did.push(`wrote ${missing}`);
  }
}
if (did.length > 0) {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=agent", "-c", "user.email=agent@example.com", ...args]);
  git("add", "-A");
  git("commit", "-qm", `Fix what agate reported: ${did.join(", ")}`);
}
appendFileSync(process.env.AGENT_LOG ?? "", `${JSON.stringify({ ...seen, did })}\n`);
