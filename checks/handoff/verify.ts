import type { HandoffCheck } from "../../schemas/acceptance-record.js";
import type { CommandRecord, CommandResult } from "../../schemas/command-record.js";
import type { ChangedFile, HandoffFacts } from "../../schemas/gate.js";
import type { HandoffFrontMatter } from "../../schemas/handoff-file.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import { codeSpan, shortSha } from "../markdown.js";
import { parseHandoffFile } from "./parse-handoff.js";

export interface VerifyHandoffInput {
  /** Where the config says the file lives. */
  path: string;
  /** handoffRequiredBy's answer; carried into the check for the acceptance record. */
  requiredBy: string[];
  facts: HandoffFacts;
  /** The pull request's head branch, live. */
  headRef: string;
  /** The files the pull request changes, live (GitHub's pulls/list-files). */
  changedFiles: ChangedFile[];
  /** The believed command record of the head commit; null while there is none. */
  record: CommandRecord | null;
}

/**
 * The handoff file's exit code for a command that has none (timed out, killed by a signal): the
 * schema needs a whole number, and no process exits with -1.
 */
export const NO_EXIT_CODE = -1;

/** The npm package that ships agate's CLI. The name `agate` on npm is an unrelated project's. */
export const CLI_PACKAGE = "agate-gate";

/**
 * The command every instruction tells an agent or a person to run (AGATE_CLI + ` run`): the
 * package named explicitly, so npx never fetches a stranger's `agate`, at the releases that
 * are compatible with this version (0.1.x for 0.1.0, 1.x for 1.2.3; a pre-release exactly), so
 * the file it writes is the one this version verifies; `--yes` because an agent cannot answer
 * npx's install prompt. Once the version is published, it works in any repository.
 */
export const AGATE_CLI = `npx --yes ${CLI_PACKAGE}@${compatibleReleases(AGATE_VERSION)}`;

export function compatibleReleases(version: string): string {
  const match = /^(\d+)\.(\d+)\.\d+$/.exec(version);
  if (!match) return version;
  return match[1] === "0" ? `0.${match[2]}` : (match[1] as string);
}

/** Past this many names of one kind, the rest are counted, so the summary stays readable. */
const NAMES_PER_KIND = 20;

/**
 * Checks the handoff file at the head commit against the live pull request, never against what
 * the file says about itself: an agent's account of its work is a claim until the branch, the
 * diff and agate's own command record agree with it. Each finding is one sentence naming the
 * exact difference. A status other than ready is not a finding: it goes in `status` and the
 * gate decides what it means.
 */
export function verifyHandoff(input: VerifyHandoffInput): HandoffCheck {
  const { path, facts } = input;
  const base = { path, required_by: input.requiredBy };
  if (!facts.file) {
    return {
      ...base,
      blob_sha: null,
      valid: false,
      status: null,
      findings: [`there is no ${path} at the head commit`],
    };
  }
  const parsed = parseHandoffFile(facts.file.text, path);
  if (!parsed.ok) {
    return {
      ...base,
      blob_sha: facts.file.blob_sha,
      valid: false,
      status: null,
      // A parse error quotes the file, which the author wrote: shown as code, never as Markdown.
      findings: parsed.errors.map((error) => codeSpan(error)),
    };
  }
  const front = parsed.front;
  const findings = [
    ...branchFindings(front, input.headRef),
    ...fileListFindings(front, input.changedFiles, path),
    ...lastCommandFindings(front, input.record),
    ...contradictionFindings(front),
    ...staleFindings(facts, path),
  ];
  return { ...base, blob_sha: facts.file.blob_sha, valid: true, status: front.status, findings };
}

function branchFindings(front: HandoffFrontMatter, headRef: string): string[] {
  return front.branch === headRef
    ? []
    : [
        `branch is ${codeSpan(front.branch)}, but the pull request's head branch is ${codeSpan(headRef)}`,
      ];
}

function fileListFindings(
  front: HandoffFrontMatter,
  changed: ChangedFile[],
  path: string,
): string[] {
  // The file cannot list itself truthfully before it is committed, so it is left out on both sides.
  const actual = changed.filter((file) => file.filename !== path);
  const listed = new Set(front.changed_files.map(normalisePath).filter((file) => file !== path));
  // A rename counts under its new name; listing the old name too (as `git diff --no-renames`
  // would) is not a false entry.
  const accepted = new Set(
    actual.flatMap((file) =>
      file.previous_filename ? [file.filename, file.previous_filename] : [file.filename],
    ),
  );
  const missing = actual.filter((file) => !listed.has(file.filename));
  const extra = [...listed].filter((file) => !accepted.has(file));
  return [
    ...capped(
      missing.map(
        (file) =>
          `changed_files lacks ${codeSpan(file.filename)}, which the pull request changes (${changeWord(file)})`,
      ),
      (rest) => `changed_files lacks ${rest} more files that the pull request changes`,
    ),
    ...capped(
      extra.map(
        (file) => `changed_files lists ${codeSpan(file)}, which the pull request does not change`,
      ),
      (rest) => `changed_files lists ${rest} more files that the pull request does not change`,
    ),
  ];
}

function changeWord(file: ChangedFile): string {
  if (file.status === "renamed" && file.previous_filename)
    return `renamed from ${codeSpan(file.previous_filename)}`;
  return file.status;
}

/**
 * What the gate finds in the file on its own, before any pull request is looked at: a missing
 * last_command, and a status that contradicts the rest. `validate` reports the same, so a file
 * it calls valid is not one the gate rejects for what it says about itself.
 */
export function fileFindings(front: HandoffFrontMatter): string[] {
  return [...(front.last_command ? [] : [missingLastCommand()]), ...contradictionFindings(front)];
}

function missingLastCommand(): string {
  return `last_command is missing: run \`${AGATE_CLI} run\`, then \`${AGATE_CLI} handoff\`, to record the last command and its exit code`;
}

function lastCommandFindings(front: HandoffFrontMatter, record: CommandRecord | null): string[] {
  const last = front.last_command;
  if (!last) return [missingLastCommand()];
  const run = last.run.trim();
  // Nothing to compare with yet is not a falsehood: the gate waits for the record instead.
  if (!record) return [];
  const command =
    record.commands.find((c) => c.run.trim() === run) ??
    record.commands.find((c) => c.name === run);
  if (!command) {
    const known = record.commands.map((c) => `${c.name}: ${codeSpan(c.run)}`).join(", ");
    return [
      `last_command ${codeSpan(run)} is not one of the commands agate recorded for this commit (${known || "none"})`,
    ];
  }
  if (command.exit_code === last.exit_code) return [];
  if (command.exit_code === null && last.exit_code === NO_EXIT_CODE) return [];
  return [
    `last_command ${codeSpan(run)} says exit code ${last.exit_code}, but agate recorded ${recordedEnd(command)}`,
  ];
}

function recordedEnd(command: CommandResult): string {
  if (command.timed_out) return `a timeout (no exit code: write ${NO_EXIT_CODE})`;
  if (command.exit_code === null)
    return `the signal ${command.signal ?? "that killed it"} (no exit code: write ${NO_EXIT_CODE})`;
  return `exit code ${command.exit_code}`;
}

export function contradictionFindings(front: HandoffFrontMatter): string[] {
  if (front.status !== "ready") return [];
  const left: string[] = [];
  if (front.next_step.trim() !== "") left.push(`next_step is ${codeSpan(front.next_step.trim())}`);
  if (front.open_items.length > 0)
    left.push(
      `${front.open_items.length} open item${front.open_items.length === 1 ? " remains" : "s remain"}`,
    );
  if (left.length === 0) return [];
  return [
    `status is ready, but ${left.join(" and ")}: a finished task has neither; clear them or set status: in-progress`,
  ];
}

/**
 * The file is fresh only when the newest commit that changed anything touched it too (or touched
 * nothing else): otherwise it describes the branch as it was before that change.
 */
function staleFindings(facts: HandoffFacts, path: string): string[] {
  const newest = facts.newest_change;
  if (!newest || newest.files.includes(path)) return [];
  if (!newest.files.some((file) => file !== path)) return [];
  // Fails closed: GitHub's list of the commit stops at 3,000 files, so the file may be in it.
  if (newest.cut) {
    return [
      `${path} is not among the 3,000 files GitHub lists of the newest code change (${shortSha(newest.sha)}), which touched more: agate cannot tell whether it was updated there. Run \`${AGATE_CLI} handoff\` and commit it on its own after that change`,
    ];
  }
  return [
    `${path} was updated before the newest code change (${shortSha(newest.sha)}): run \`${AGATE_CLI} handoff\` and commit it with or after the change`,
  ];
}

function capped(findings: string[], more: (rest: number) => string): string[] {
  if (findings.length <= NAMES_PER_KIND) return findings;
  return [...findings.slice(0, NAMES_PER_KIND), more(findings.length - NAMES_PER_KIND)];
}

/** `./src/a.ts` and `src/a.ts` name one file; git and GitHub always write the second. */
const normalisePath = (file: string) => file.replace(/^(\.\/)+/, "");
