import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, posix, resolve } from "node:path";
import { commandPassed } from "../../checks/command-results.js";
import { configExtends, parseConfig } from "../../checks/config/parse-config.js";
import { ConfigurationError } from "../../checks/errors.js";
import { parseHandoffFile, renderHandoffFile } from "../../checks/handoff/parse-handoff.js";
import { AGATE_CLI, contradictionFindings, NO_EXIT_CODE } from "../../checks/handoff/verify.js";
import { shortSha } from "../../checks/markdown.js";
import { NORMALISATION_RULES } from "../../checks/normalise-output.js";
import {
  type CommandRecord,
  commandRecordSchema,
  RECORD_FILE_NAME,
} from "../../schemas/command-record.js";
import { CONFIG_PATH, handoffSchema } from "../../schemas/config.js";
import {
  type HandoffFrontMatter,
  handoffFrontMatterSchema,
  handoffStatusSchema,
} from "../../schemas/handoff-file.js";
import { localBase } from "../base-config.js";
import { loadConfig, type ReadDefaults } from "../config-defaults.js";
import { git, gitMaybe, gitShadow, localStateDir } from "../git/git.js";
import { createShadowGit, refreshIndex, type ShadowGit } from "../git/shadow-git.js";

/** A problem the person at the terminal fixes (a flag, a file, the config): `agate` exits 2. */
export class HandoffUsageError extends Error {
  override readonly name = "HandoffUsageError";
}

export interface WriteHandoffOptions {
  cwd: string;
  /** The base to diff against; default: where HEAD forked from the default branch. */
  base?: string;
  /** Repository-relative; default: `handoff.path` of the base config, else `.agate/handoff.md`. */
  path?: string;
  task?: string;
  status?: string;
  nextStep?: string;
  /** Replaces the open items; empty strings are dropped, so `[""]` clears them. */
  openItems?: string[];
  /** The command record of `agate run`; default `<git dir>/agate/command-record.json`. */
  recordPath?: string;
}

export interface WrittenHandoff {
  /** Repository-relative path of the handoff file. */
  path: string;
  /** Absolute path of the handoff file. */
  file: string;
  created: boolean;
  /** The file already said exactly this; nothing was written. */
  unchanged: boolean;
  front: HandoffFrontMatter;
  /** Things the caller should tell the user (stderr), such as a record of another commit. */
  warnings: string[];
}

/** How much command output a handoff keeps: enough to see the failure, not a log. */
const TAIL_LINES = 30;
const TAIL_CHARS = 4_000;

const NEW_FILE_BODY = `## Notes

What the next session needs that the fields above do not say: decisions taken and why, dead
ends, where to look first.
`;

/**
 * Writes or updates the handoff file from the live git state, so that what it says about the
 * branch is true when it is written: the current branch, every file changed against the base
 * (committed or not), and the last command of the local record `agate run` wrote. What only a
 * person or agent can say (task, status, next step, open items, the free text) is kept from the
 * existing file unless an option sets it.
 */
export function writeHandoff(options: WriteHandoffOptions): WrittenHandoff {
  const root = git(options.cwd, ["rev-parse", "--show-toplevel"]).trim();
  const warnings: string[] = [];
  const baseSha = (() => {
    try {
      return localBase(root, options.base);
    } catch (error) {
      throw new HandoffUsageError((error as Error).message);
    }
  })();
  const path = handoffPath(root, baseSha, options.path);
  const file = join(root, path);

  const existing = existsSync(file) ? readExisting(readFileSync(file, "utf8"), path) : null;
  const branch = gitMaybe(root, ["symbolic-ref", "--quiet", "--short", "HEAD"])?.trim();
  if (!branch) {
    throw new HandoffUsageError(
      `HEAD is detached: check out the pull request's branch (git switch <branch>) and run \`${AGATE_CLI} handoff\` again`,
    );
  }

  const task = options.task ?? existing?.front.task;
  if (task === undefined) {
    throw new HandoffUsageError(
      `there is no ${path} yet: pass --task "<the task>" (an issue such as #12, or one line) to start it`,
    );
  }
  if (task.trim() === "") throw new HandoffUsageError("--task must not be empty");

  const status = chosenStatus(options.status, existing?.front.status ?? "in-progress");
  const lastCommand = recordedLastCommand(
    root,
    options,
    existing?.front.last_command ?? null,
    warnings,
  );
  const { changed, tree } = readWorkTree(root, baseSha, path);

  const front = handoffFrontMatterSchema.parse({
    task: task.trim(),
    branch,
    status,
    changed_files: changed,
    last_command: lastCommand,
    next_step: options.nextStep?.trim() ?? existing?.front.next_step ?? "",
    open_items: options.openItems
      ? options.openItems.map((item) => item.trim()).filter((item) => item !== "")
      : (existing?.front.open_items ?? []),
  } satisfies HandoffFrontMatter);
  // The gate's words for a status that contradicts the rest of the file.
  for (const finding of contradictionFindings(front)) {
    warnings.push(`the gate would reject this: ${finding}`);
  }

  const body = withTreeMarker(existing ? existing.body : NEW_FILE_BODY, tree);
  const text = renderHandoffFile(front, body);
  const unchanged = existing?.text === text;
  if (!unchanged) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return { path, file, created: existing === null, unchanged, front, warnings };
}

function chosenStatus(
  flag: string | undefined,
  kept: HandoffFrontMatter["status"],
): HandoffFrontMatter["status"] {
  if (flag === undefined) return kept;
  const parsed = handoffStatusSchema.safeParse(flag);
  if (!parsed.success) {
    throw new HandoffUsageError(
      `--status ${JSON.stringify(flag)} is not one of ${handoffStatusSchema.options.join(", ")}`,
    );
  }
  return parsed.data;
}

/** last_command from the local record `agate run` wrote, if it is of HEAD; else the one kept. */
function recordedLastCommand(
  root: string,
  options: WriteHandoffOptions,
  kept: HandoffFrontMatter["last_command"],
  warnings: string[],
): HandoffFrontMatter["last_command"] {
  const record = readRecord(root, options.cwd, options.recordPath);
  if (!record.record) {
    warnings.push(
      `no command record at ${record.file}: run \`${AGATE_CLI} run\` first; last_command ${kept ? "kept as it was" : "left empty"}`,
    );
    return kept;
  }
  const head = git(root, ["rev-parse", "HEAD"]).trim();
  // A record of another commit says nothing about this one: copied, its last_command would be
  // a claim the gate checks against this commit's record, and may well refuse.
  if (record.record.tested.sha !== head) {
    throw new HandoffUsageError(
      `the command record ${record.file} is of ${shortSha(record.record.tested.sha)}, but HEAD is ${shortSha(head)}, and last_command must describe this commit: run \`${AGATE_CLI} run\`, then \`${AGATE_CLI} handoff\` again`,
    );
  }
  const chosen = lastCommandOf(record.record);
  if (chosen) return chosen;
  warnings.push(`the command record ${record.file} has no commands; last_command kept`);
  return kept;
}

/** The files changed against the base and the code tree, read without the repository's .git. */
function readWorkTree(
  root: string,
  baseSha: string,
  path: string,
): { changed: string[]; tree: string } {
  // The work tree is read through a git dir of agate's own with a copy of the index: the
  // repository's config (filters, fsmonitor, drivers) is never read, the index never written.
  const head = gitMaybe(root, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])?.trim();
  const scratch = mkdtempSync(join(tmpdir(), "agate-handoff-"));
  try {
    const shadow = createShadowGit({
      cwd: root,
      sha: head ?? baseSha,
      gitDir: join(scratch, "git"),
      index: "as-is",
    });
    refreshIndex(shadow);
    return { changed: changedFiles(shadow, baseSha, path), tree: codeTree(shadow, path, head) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const MARKER = /^<!-- agate handoff: .*-->\s*$/;

/**
 * The last line of the notes names the code tree the file was written for. The gate counts the
 * file as fresh only when the newest code commit also changed it; when new code leaves every
 * field as it was, this line still changes, so writing the file again is enough to refresh it
 * (and running it twice on the same code writes nothing).
 */
function withTreeMarker(body: string, tree: string): string {
  const notes = body
    .split("\n")
    .filter((line) => !MARKER.test(line))
    .join("\n")
    .replace(/\s+$/, "");
  const marker = `<!-- agate handoff: written for the code tree ${tree.slice(0, 12)} (the work tree without this file) -->`;
  return notes === "" ? `${marker}\n` : `${notes}\n\n${marker}\n`;
}

/**
 * The tree the work tree would commit as, without the handoff file: built in the shadow's copy of
 * the index (the real one and its staged changes are untouched, unchanged files are not re-hashed,
 * and new blobs land in the shadow, not in the repository).
 */
function codeTree(shadow: ShadowGit, handoff: string, head: string | undefined): string {
  const run = (args: string[]) => gitShadow(shadow, args);
  try {
    if (!existsSync(join(shadow.gitDir, "index")) && head) run(["read-tree", head]);
    run(["add", "--all", "--", "."]);
    run(["rm", "--cached", "--quiet", "--ignore-unmatch", "--", handoff]);
    return run(["write-tree"]).trim();
  } catch (error) {
    throw new Error(
      `cannot compute the work tree's code tree in ${shadow.workTree}: ${(error as Error).message}`,
    );
  }
}

/**
 * The handoff.path of a base config that extends organisation defaults, read with them (they may
 * set it); undefined when the config extends none (writeHandoff reads it then, synchronously).
 */
export async function extendedHandoffPath(options: {
  cwd: string;
  base: string | undefined;
  owner: string | null;
  readDefaults: ReadDefaults;
}): Promise<string | undefined> {
  const root = git(options.cwd, ["rev-parse", "--show-toplevel"]).trim();
  let baseSha: string;
  try {
    baseSha = localBase(root, options.base);
  } catch (error) {
    throw new HandoffUsageError((error as Error).message);
  }
  const configText = gitMaybe(root, ["cat-file", "blob", `${baseSha}:${CONFIG_PATH}`]);
  if (configText === undefined) return undefined;
  try {
    if (!configExtends(configText, CONFIG_PATH, options.owner)) return undefined;
    const loaded = await loadConfig(configText, CONFIG_PATH, options);
    return loaded.config.handoff.path;
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new HandoffUsageError(
      `${error.message}\nThe handoff file's path comes from this config (at the base ${shortSha(baseSha)}) and the defaults it extends: fix it, or pass --path.`,
    );
  }
}

/** --path, else the base config's handoff.path, else the schema's default. */
function handoffPath(root: string, baseSha: string, flag: string | undefined): string {
  if (flag !== undefined) return repoRelative(flag);
  const configText = gitMaybe(root, ["cat-file", "blob", `${baseSha}:${CONFIG_PATH}`]);
  if (configText === undefined) return handoffSchema.parse({}).path;
  try {
    return parseConfig(configText, CONFIG_PATH).config.handoff.path;
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new HandoffUsageError(
      `${error.message}\nThe handoff file's path comes from this config (at the base ${shortSha(baseSha)}): fix it there, or pass --path.`,
    );
  }
}

/** A path inside the repository, written as git writes it (forward slashes, no `./`). */
function repoRelative(path: string): string {
  const normal = posix.normalize(path.replace(/\\/g, "/"));
  if (path.trim() === "" || isAbsolute(path) || normal === "." || normal.startsWith("../")) {
    throw new HandoffUsageError(
      `--path ${JSON.stringify(path)} must be a file path relative to the repository root, such as .agate/handoff.md`,
    );
  }
  return normal.replace(/^\.\//, "");
}

function readExisting(text: string, path: string) {
  const parsed = parseHandoffFile(text, path);
  if (!parsed.ok) {
    throw new HandoffUsageError(
      `${path} exists but cannot be read, so its task, status and notes cannot be kept:\n${parsed.errors
        .map((error) => `  - ${error}`)
        .join(
          "\n",
        )}\nFix these lines, or delete the file and run \`${AGATE_CLI} handoff\` again with --task.`,
    );
  }
  return { text, front: parsed.front, body: parsed.body };
}

function readRecord(
  root: string,
  cwd: string,
  flag: string | undefined,
): { file: string; record: CommandRecord | null } {
  const file = flag ? resolve(cwd, flag) : join(localStateDir(root), RECORD_FILE_NAME);
  if (!existsSync(file)) {
    if (flag) {
      throw new HandoffUsageError(
        `--record ${flag}: there is no file at ${file}; run \`${AGATE_CLI} run --record ${flag}\` first, or leave out --record`,
      );
    }
    return { file, record: null };
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new HandoffUsageError(
      `${file} is not JSON (${(error as Error).message}): run \`${AGATE_CLI} run\` again to rewrite it`,
    );
  }
  const parsed = commandRecordSchema.safeParse(data);
  if (!parsed.success) {
    throw new HandoffUsageError(
      `${file} is not an agate command record (${parsed.error.issues[0]?.message ?? "invalid"}): run \`${AGATE_CLI} run\` again to rewrite it`,
    );
  }
  return { file, record: parsed.data };
}

/** The first command that failed (what the next session must fix), else the last one. */
function lastCommandOf(record: CommandRecord): HandoffFrontMatter["last_command"] {
  const command = record.commands.find((c) => !commandPassed(c)) ?? record.commands.at(-1);
  if (!command) return null;
  return {
    run: command.run,
    exit_code: command.exit_code ?? NO_EXIT_CODE,
    output_tail: shortTail(command.output.tail),
  };
}

const TERMINAL_ESCAPES = NORMALISATION_RULES.find((rule) => rule.name === "ansi")?.pattern;

function shortTail(tail: string): string {
  const plain = TERMINAL_ESCAPES ? tail.replace(TERMINAL_ESCAPES, "") : tail;
  const lines = plain.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  let kept = lines.slice(-TAIL_LINES).join("\n");
  if (kept.length > TAIL_CHARS) kept = kept.slice(-TAIL_CHARS);
  return kept === "" ? "" : `${kept}\n`;
}

/**
 * Every file the branch changes against the merge base, as the pull request will show it once
 * everything is committed: committed, staged, unstaged and untracked (ignored files are not).
 * Renames are listed as both names, which the gate accepts, so no rename detection setting can
 * make the list disagree with GitHub's.
 */
function changedFiles(shadow: ShadowGit, baseSha: string, handoff: string): string[] {
  const names = (args: string[]) => gitShadow(shadow, args).split("\0").filter(Boolean);
  const files = new Set([
    ...names(["diff-index", "--name-only", "--no-renames", "-z", baseSha]),
    ...names(["diff-index", "--name-only", "--no-renames", "-z", "--cached", baseSha]),
    ...names(["ls-files", "--others", "--exclude-standard", "-z"]),
  ]);
  files.delete(handoff);
  return [...files].sort();
}
