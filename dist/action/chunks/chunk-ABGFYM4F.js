import { createRequire as __agateCreateRequire } from 'node:module';
const require = __agateCreateRequire(import.meta.url);
import {
  external_exports
} from "./chunk-3CVLB5M4.js";

// checks/normalise-output.ts
var TERMINAL_ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
var NORMALISATION_RULES = [
  {
    name: "ansi",
    pattern: TERMINAL_ESCAPES,
    replacement: ""
  },
  {
    name: "iso-timestamp",
    pattern: /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g,
    replacement: "<timestamp>"
  },
  {
    name: "time-of-day",
    pattern: /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g,
    replacement: "<time>"
  },
  {
    name: "uuid",
    pattern: /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g,
    replacement: "<uuid>"
  },
  {
    name: "temp-path",
    // mkdtemp-style directories: /tmp/..., macOS /var/folders/..., the runner's _temp, Windows Temp.
    pattern: /(?:\/private)?\/tmp\/[^\s'"`:,;)\]}]+|\/var\/folders\/[^\s'"`:,;)\]}]+|\/home\/runner\/work\/_temp\/[^\s'"`:,;)\]}]+|[A-Za-z]:\\(?:[^\s\\'"]+\\)*?Temp\\[^\s'"`:,;)\]}]+/g,
    replacement: "<tmp>"
  },
  {
    name: "duration",
    // 12ms, 1.5s, 3 seconds, 2m, 1h, 250µs: a number directly followed by a unit of time.
    pattern: /\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b/g,
    replacement: "<duration>"
  },
  {
    name: "hex-address",
    pattern: /\b0x[0-9a-fA-F]{6,16}\b/g,
    replacement: "<addr>"
  },
  {
    name: "pid",
    pattern: /\b(pid|PID|process)([ =:#]+)\d+\b/g,
    replacement: "$1$2<pid>"
  }
];
var [ANSI_RULE, ...TEXT_RULES] = NORMALISATION_RULES;
var COMBINED = new RegExp(TEXT_RULES.map((rule) => `(?:${rule.pattern.source})`).join("|"), "g");
var WHOLE = TEXT_RULES.map((rule) => ({
  rule,
  whole: new RegExp(`^(?:${rule.pattern.source})$`),
  single: new RegExp(rule.pattern.source)
}));
function replaceMatch(match) {
  const found = WHOLE.find(({ whole }) => whole.test(match));
  return found ? match.replace(found.single, found.rule.replacement) : match;
}
function normaliseLine(line) {
  const body = line.endsWith("\r") ? line.slice(0, -1) : line;
  const lastReturn = body.lastIndexOf("\r");
  let text = lastReturn >= 0 ? body.slice(lastReturn + 1) : body;
  if (ANSI_RULE && text.includes("\x1B"))
    text = text.replace(ANSI_RULE.pattern, ANSI_RULE.replacement);
  text = text.replace(COMBINED, replaceMatch);
  return text.replace(/[ \t]+$/, "");
}
var NEEDS = {
  "iso-timestamp": ":(?<=\\d:)(?=\\d)",
  "time-of-day": ":(?<=\\d:)(?=\\d)",
  uuid: "-(?<=[0-9a-fA-F]-)(?=[0-9a-fA-F])",
  "temp-path": "\\/(?:tmp|var\\/folders|home\\/runner\\/work\\/_temp)\\/|:\\\\",
  duration: "\\d(?=\\s?[n\xB5umsh])",
  "hex-address": "0x",
  pid: "\\d(?<=(?:pid|PID|process)[ =:#]+\\d)"
};
var MAY_CHANGE = new RegExp(
  [
    "[\\r\\u001b]",
    ...new Set(
      TEXT_RULES.map((rule) => {
        const needs = NEEDS[rule.name];
        if (!needs) throw new Error(`normalise-output: the rule ${rule.name} has no NEEDS entry`);
        return needs;
      })
    )
  ].join("|"),
  "g"
);
function dropTrailingBlanks(text) {
  for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", newline + 1)) {
    const before = newline > 0 ? text.charCodeAt(newline - 1) : 0;
    if (before === 32 || before === 9) return text.replace(/[ \t]+\n/g, "\n");
  }
  return text;
}
function normaliseOutput(text) {
  let out = "";
  let done = 0;
  MAY_CHANGE.lastIndex = 0;
  for (let found = MAY_CHANGE.exec(text); found; found = MAY_CHANGE.exec(text)) {
    const start = found.index > 0 ? text.lastIndexOf("\n", found.index - 1) + 1 : 0;
    let end = text.indexOf("\n", found.index);
    if (end < 0) end = text.length;
    out += dropTrailingBlanks(text.slice(done, start)) + normaliseLine(text.slice(start, end));
    done = end;
    MAY_CHANGE.lastIndex = end;
  }
  const rest = done === 0 ? text : text.slice(done);
  const lastNewline = rest.lastIndexOf("\n");
  const lines = dropTrailingBlanks(rest.slice(0, lastNewline + 1));
  const last = rest.slice(lastNewline + 1);
  const lastTrimmed = last.replace(/[ \t]+$/, "");
  if (out === "" && lines.length === lastNewline + 1 && lastTrimmed === last) return rest;
  return out + lines + lastTrimmed;
}

// checks/markdown.ts
var shortSha = (sha) => sha.slice(0, 7);
var tableCell = (text) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
var escapeHtml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
function fenced(text) {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text
${text.replace(/\n$/, "")}
${fence}`;
}
function codeSpan(text, maxChars = 300) {
  const flat = text.replace(/[\r\n\t]+/g, " ");
  const cut = flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}\u2026` : flat;
  const longest = Math.max(0, ...[...cut.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = cut.startsWith("`") || cut.endsWith("`") || cut === "" ? " " : "";
  return `${fence}${pad}${cut}${pad}${fence}`;
}
function durationText(ms) {
  if (ms < 1e3) return `${Math.max(0, Math.round(ms))} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${tenths / 10} s`;
  const seconds = Math.round(ms / 1e3);
  if (seconds < 3600) {
    const s = seconds % 60;
    return `${Math.floor(seconds / 60)} min${s > 0 ? ` ${s} s` : ""}`;
  }
  const minutes = Math.round(seconds / 60);
  const m = minutes % 60;
  return `${Math.floor(minutes / 60)} h${m > 0 ? ` ${m} min` : ""}`;
}
function counted(count, singular, plural = `${singular}s`) {
  return `${count} ${count === 1 ? singular : plural}`;
}
var TERMINAL_ESCAPES2 = NORMALISATION_RULES.find((rule) => rule.name === "ansi")?.pattern;
function displayTail(text) {
  if (!TERMINAL_ESCAPES2) throw new Error("normalise-output.ts lost its ansi rule");
  return text.replace(TERMINAL_ESCAPES2, "").split("\n").map((line) => {
    const drawn = line.replace(/\r+$/, "");
    return drawn.slice(drawn.lastIndexOf("\r") + 1);
  }).join("\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}
function outputDetails(input) {
  const shown = displayTail(input.tail);
  if (shown.trim() === "") return [`${escapeHtml(input.label)}; it printed nothing.`];
  return [
    `<details${input.open ? " open" : ""}><summary>${escapeHtml(`${input.label}${input.note ?? ""}`)}</summary>`,
    "",
    ...input.lead ? [input.lead, ""] : [],
    fenced(shown),
    "",
    "</details>"
  ];
}
function outcomeText(command) {
  if (command.timed_out)
    return command.duration_ms === void 0 ? "timed out" : `timed out after ${durationText(command.duration_ms)}`;
  if (command.signal) return `killed (${command.signal})`;
  return command.exit_code === 0 ? "passed" : `failed (exit ${command.exit_code ?? "none"})`;
}

// schemas/primitives.ts
var gitShaSchema = external_exports.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, {
  error: "expected a git object id (40 or 64 hex digits)"
});
var sha256HexSchema = external_exports.string().regex(/^[0-9a-f]{64}$/, { error: "expected a sha256 digest (64 hex digits)" });
var isoDateTimeSchema = external_exports.iso.datetime({ offset: true });
var repositoryFullNameSchema = external_exports.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { error: "expected owner/name" });
var githubLoginSchema = external_exports.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$/, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a GitHub login such as octocat or copilot-swe-agent[bot]`
});
var positiveIntSchema = external_exports.number().int().positive();
var nonNegativeIntSchema = external_exports.number().int().nonnegative();

// schemas/command-record.ts
var RECORD_ARTIFACT_PREFIX = "agate-command-record";
var RECORD_FILE_NAME = "command-record.json";
var recordArtifactName = (runAttempt2) => `${RECORD_ARTIFACT_PREFIX}-attempt-${runAttempt2}`;
var CHANGED_PATHS_LIMIT = 100;
var OUTPUT_TAIL_BYTES = 64 * 1024;
var commandOutputSchema = external_exports.strictObject({
  bytes: nonNegativeIntSchema,
  sha256: sha256HexSchema.meta({
    description: "sha256 of the raw output (stdout and stderr as interleaved)."
  }),
  normalized_sha256: sha256HexSchema.meta({
    description: "sha256 after volatile text (colours, timestamps, durations, temp paths) is removed."
  }),
  tail: external_exports.string().meta({ description: `The last ${OUTPUT_TAIL_BYTES} bytes of output, as UTF-8.` }),
  truncated: external_exports.boolean().meta({ description: "The tail is not the whole output." })
});
var commandResultSchema = external_exports.strictObject({
  name: external_exports.string().min(1),
  run: external_exports.string().min(1),
  exit_code: external_exports.number().int().nullable().meta({ description: "null when killed by a signal or timeout." }),
  signal: external_exports.string().nullable(),
  timed_out: external_exports.boolean(),
  started_at: isoDateTimeSchema,
  duration_ms: nonNegativeIntSchema,
  output: commandOutputSchema,
  changed_paths: external_exports.array(external_exports.string()).meta({
    description: `Paths whose content or existence in the work tree differs after this command from just before it (modified, added, deleted; new files unless ignored), relative to the repository root, sorted; at most ${CHANGED_PATHS_LIMIT}.`
  }),
  changed_paths_count: nonNegativeIntSchema.meta({
    description: "How many paths changed, listed or not."
  }),
  privileged: external_exports.boolean().optional().meta({
    description: "true: the base config marks this command privileged (`commands[].privileged`), so it ran as agate's own user, not as the commands user, and could have changed this record. Absent: it did not."
  })
});
var testedSnapshotSchema = external_exports.strictObject({
  sha: gitShaSchema.meta({
    description: "`git rev-parse HEAD` where the commands ran (a merge commit on pull_request)."
  }),
  tree_sha: gitShaSchema,
  parents: external_exports.array(gitShaSchema).meta({
    description: "As the checkout knows them: empty in a shallow clone. The App reads the parents from GitHub, never from here."
  }),
  clean_before: external_exports.boolean().meta({
    description: "The work tree matched the tested commit when the first command started (nothing an earlier step wrote)."
  }),
  dirty_before: external_exports.array(external_exports.string()).meta({
    description: `Paths that differed before the first command, at most ${CHANGED_PATHS_LIMIT}.`
  }),
  clean: external_exports.boolean().meta({ description: "The work tree had no changed or untracked files afterwards." }),
  dirty_digest: sha256HexSchema.nullable().meta({
    description: "sha256 over path and blob hash of each changed or untracked file; null when clean."
  })
});
var pullRequestRefSchema = external_exports.strictObject({
  number: positiveIntSchema,
  head_sha: gitShaSchema,
  base_sha: gitShaSchema
});
var mergeGroupRefSchema = external_exports.strictObject({
  head_ref: external_exports.string().min(1),
  head_sha: gitShaSchema,
  base_sha: gitShaSchema
});
var runnerSchema = external_exports.strictObject({
  os: external_exports.string(),
  arch: external_exports.string(),
  image_version: external_exports.string().nullable(),
  node_version: external_exports.string()
});
var workflowRunRefSchema = external_exports.strictObject({
  run_id: positiveIntSchema,
  run_attempt: positiveIntSchema,
  workflow_ref: external_exports.string().min(1),
  job: external_exports.string().min(1),
  event_name: external_exports.string().min(1)
});
var isolationSchema = external_exports.strictObject({
  mode: external_exports.enum(["user", "shared"]).meta({
    description: "`user`: the commands ran as a user of their own, not agate's, without sudo or root; `shared`: as agate's own user, so they could have changed this record."
  }),
  user: external_exports.string().min(1).meta({ description: "The user the commands ran as." }),
  uid: nonNegativeIntSchema,
  reason: external_exports.string().nullable().meta({
    description: "`shared`: why agate could not run them as a user of their own. null otherwise."
  }),
  swept: external_exports.enum(["user", "process-group"]).meta({
    description: "What agate killed after each command: `user`, every process of the commands user (a daemon, a double fork, setsid: all); `process-group`, the command's process group (a process that left it with setsid was not seen)."
  })
});
var graderVersionSchema = external_exports.strictObject({
  agate_version: external_exports.string().min(1),
  config_digest: sha256HexSchema
});
var commandRecordSchema = external_exports.strictObject({
  kind: external_exports.literal("agate.command-record"),
  version: external_exports.literal(2).meta({
    description: "2: published as a workflow artifact, with the work tree's state before and after each command."
  }),
  repository: repositoryFullNameSchema.nullable().meta({ description: "null for a local `agate run`." }),
  tested: testedSnapshotSchema,
  pull_request: pullRequestRefSchema.nullable(),
  merge_group: mergeGroupRefSchema.nullable(),
  commands: external_exports.array(commandResultSchema),
  runner: runnerSchema,
  grader: graderVersionSchema,
  workflow: workflowRunRefSchema.nullable().meta({ description: "null outside GitHub Actions." }),
  isolation: isolationSchema.optional().meta({
    description: "How the commands ran. Absent in records made before agate ran them as a user of their own: they ran as agate's user."
  }),
  cut: external_exports.array(external_exports.string()).default([]).meta({
    description: "What was shortened to fit a size limit, such as `commands[2].output.tail`."
  }),
  created_at: isoDateTimeSchema
});

// action/environment.ts
import { arch, platform } from "node:os";
var FILE_COMMANDS = [
  { name: "GITHUB_OUTPUT", blocks: "setting this step's outputs (passed=true)" },
  { name: "GITHUB_ENV", blocks: "setting variables for later steps" },
  { name: "GITHUB_PATH", blocks: "putting directories first on PATH for later steps" },
  { name: "GITHUB_STATE", blocks: "setting the Action's post-step state" },
  { name: "GITHUB_STEP_SUMMARY", blocks: "writing the job summary agate writes" }
];
var REMOVED_VARIABLES = [
  // Secrets and the runner's internal tokens.
  { name: "GITHUB_TOKEN", blocks: "writing to the repository with the workflow's token" },
  { name: "GH_TOKEN", blocks: "the same token under the name gh reads" },
  { name: "INPUT_", prefix: true, blocks: "the Action's inputs, the token input among them" },
  {
    name: "ACTIONS_",
    prefix: true,
    blocks: "the runner's runtime, cache, results and OIDC request tokens (uploading artifacts, writing caches, minting OIDC tokens); agate's own /proc/<pid>/environ, which has them, is closed to the commands user (isolation.ts), and where the commands share agate's user, to them too on a Node with process.execve (same-uid.ts)"
  },
  ...FILE_COMMANDS,
  // bash start-up: code that would run before, around or instead of the command.
  {
    name: "BASH_ENV",
    blocks: "a file bash sources before a non-interactive command (`trap 'exit 0' EXIT`)"
  },
  { name: "ENV", blocks: "a file sh and bash in POSIX mode source at start-up" },
  {
    name: "BASH_FUNC_",
    prefix: true,
    blocks: "exported functions that override commands and builtins (`false() { true; }`)"
  },
  { name: "SHELLOPTS", blocks: "shell options imported at start-up (xtrace, which expands PS4)" },
  { name: "BASHOPTS", blocks: "shopt options imported at start-up (extdebug, ...)" },
  { name: "PS4", blocks: "a prompt whose command substitutions run on every traced line" },
  { name: "PROMPT_COMMAND", blocks: "a command run before each prompt" },
  { name: "CDPATH", blocks: "`cd dir` going somewhere else than ./dir" },
  { name: "GLOBIGNORE", blocks: "globs silently matching fewer files (tests skipped)" },
  { name: "IFS", blocks: "word splitting on other characters" },
  { name: "BASH_XTRACEFD", blocks: "trace output written to a descriptor of the command's choice" },
  // The dynamic loader: code injected into bash and every program it starts.
  {
    name: "LD_",
    prefix: true,
    blocks: "LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT: a library loaded into every process"
  },
  { name: "DYLD_", prefix: true, blocks: "the same on macOS" },
  // git: configuration, programs and repository locations injected into the commands' git.
  {
    name: "GIT_",
    prefix: true,
    blocks: "GIT_CONFIG_*, GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_EXEC_PATH...: a git that reads another repository or runs another program"
  }
];
var NEUTRAL_GIT_VARIABLES = /* @__PURE__ */ new Set([
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_AUTHOR_DATE",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "GIT_COMMITTER_DATE",
  "GIT_TERMINAL_PROMPT"
]);
function isRemovedVariable(name) {
  if (NEUTRAL_GIT_VARIABLES.has(name)) return false;
  return REMOVED_VARIABLES.some(
    (entry) => entry.prefix ? name.startsWith(entry.name) : name === entry.name
  );
}
function commandEnvironment(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isRemovedVariable(name)));
}
function runnerInfo(env) {
  return {
    os: env.RUNNER_OS ?? platform(),
    arch: env.RUNNER_ARCH ?? arch(),
    image_version: env.ImageVersion ?? null,
    node_version: process.version
  };
}
function runAttempt(env) {
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? "1");
  return Number.isInteger(attempt) && attempt > 0 ? attempt : 1;
}
function workflowRun(env) {
  if (env.GITHUB_ACTIONS !== "true" || !env.GITHUB_RUN_ID) return null;
  return {
    run_id: Number(env.GITHUB_RUN_ID),
    run_attempt: runAttempt(env),
    workflow_ref: env.GITHUB_WORKFLOW_REF ?? env.GITHUB_WORKFLOW ?? "unknown",
    job: env.GITHUB_JOB ?? "unknown",
    event_name: env.GITHUB_EVENT_NAME ?? "unknown"
  };
}

// action/upload.ts
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// schemas/trace.ts
var TRACE_FORMATS = [
  "claude-code",
  "codex",
  "openhands",
  "swe-agent",
  "mini-swe-agent"
];
var traceFormatSchema = external_exports.enum(TRACE_FORMATS);
var stepKindSchema = external_exports.enum(["read", "write", "command", "search", "other"]);
var shortHashSchema = external_exports.string().regex(/^[0-9a-f]{16}$/);
var countSchema = external_exports.number().int().nonnegative();
var traceStepSchema = external_exports.strictObject({
  /** 1-based number of the tool call in the trace. */
  index: external_exports.number().int().positive(),
  /** Where the call was read from: `line 12` for JSONL, `messages[7]` for one JSON document. */
  at: external_exports.string(),
  tool: external_exports.string().meta({ description: "Tool name as the agent called it (Bash, shell, bash)." }),
  kind: stepKindSchema,
  /** The command's program (`python`, `grep`) for shell calls, else the tool name. */
  name: external_exports.string(),
  /** Arguments as canonical JSON (sorted keys, cosmetic fields such as descriptions dropped). */
  args: external_exports.string(),
  args_hash: shortHashSchema,
  /** A short, single-line preview for people (the command, or the path). */
  preview: external_exports.string(),
  /** File the call read or wrote, when the format says. */
  path: external_exports.string().nullable(),
  result: external_exports.strictObject({
    /** Hash of the result after volatile fields are stripped and the text normalised. */
    hash: shortHashSchema.nullable(),
    exit_code: external_exports.number().int().nullable(),
    /** The tool reported an error (is_error, a non-zero exit, an error observation). */
    error: external_exports.boolean(),
    bytes: countSchema
  }),
  /** Content hashes around a write, when the format carries them (before null: a new file). */
  write: external_exports.strictObject({ before: shortHashSchema.nullable(), after: shortHashSchema.nullable() }).nullable(),
  /** Paths this call put back to the base commit (`git checkout -- f`, `git stash`; `*`: all). */
  revert: external_exports.array(external_exports.string()).nullable(),
  /** Every file the call wrote, as far as it says (a shell line can write several). */
  writes: external_exports.array(external_exports.string()),
  /** Files put back from a copy (`cp f.orig f`, an editor's undo: `from` null). */
  restores: external_exports.array(external_exports.strictObject({ from: external_exports.string().nullable(), to: external_exports.string() })),
  /** Copies made (`cp f f.bak`), so that copying back is seen as a restore. */
  copies: external_exports.array(external_exports.strictObject({ from: external_exports.string(), to: external_exports.string() })),
  /** `git stash pop`/`apply`: stashed work comes back (a baseline check ends). */
  unstash: external_exports.boolean(),
  /**
   * The call with its volatile and free-text parts masked (numbers, ids, quoted text), so the
   * same action reworded hashes the same; `args_hash` keeps the exact call.
   */
  action_hash: shortHashSchema,
  /**
   * The result with what the call itself said removed (an `echo` of its own words tells
   * nothing), volatile parts masked; null without a result.
   */
  echo_free_hash: shortHashSchema.nullable(),
  /** What kind of failure this was (`AssertionError`, `exit 2`), for "a new failure mode". */
  failure: external_exports.string().nullable(),
  /** Infrastructure failure seen in this call's result (timeouts, 5xx, rate limits). */
  infrastructure: external_exports.enum(["timeout", "server-error", "rate-limit", "network"]).nullable(),
  /** The model call that issued this step (its id, or a running number). */
  model_call: external_exports.string().nullable(),
  /** The human turn it belongs to (1-based). */
  turn: external_exports.number().int().nonnegative(),
  /** When it happened as the trace says (never evidence; shown only). */
  time: external_exports.string().nullable()
});
var modelUsageSchema = external_exports.strictObject({
  input_tokens: countSchema,
  cached_input_tokens: countSchema,
  cache_creation_input_tokens: countSchema,
  output_tokens: countSchema,
  cost_usd: external_exports.number().nonnegative().nullable()
});
var progressThresholdsSchema = external_exports.strictObject({
  identical_streak: external_exports.number().int().min(2).default(3).meta({
    description: "Flag the same call with the same (volatile-stripped) result this many times in a row."
  }),
  cycle_repeats: external_exports.number().int().min(2).default(3).meta({
    description: "Flag a cycle of 2 or 3 different calls with unchanged results repeated this many times (A-B-A-B-A-B is 3)."
  }),
  reverts: external_exports.number().int().min(1).default(3).meta({
    description: "Flag edit-run-restore cycles once the agent has restored earlier work this many times (git checkout/restore/stash, a copy back from a backup, an editor's undo; one clean-up of several files is one restore, a baseline check that puts the work back is none) without a command newly passing."
  }),
  no_new_information: external_exports.number().int().min(2).default(12).meta({
    description: "Flag this many tool calls in a row that brought no new information."
  }),
  steps_without_milestone: external_exports.number().int().min(2).default(50).meta({
    description: "Flag this many tool calls after the last milestone (a command newly passing, a new failure mode of the same call, an edit that survived to the end), or from the start when there was none."
  }),
  idle_tail_share: external_exports.number().min(0).max(1).default(0.72).meta({
    description: "Flag a run whose last calls, at least this share of all its calls (and at least 10), came after its last milestone (or from the start, when it reached none) and reached no other (seed 001: a run that reaches a milestone, then idles). 0 turns it off."
  }),
  no_milestone_stale_share: external_exports.number().min(0).max(1).default(0).meta({
    description: "Share of calls without new information a milestone-less stretch also needs to be flagged (0: the stretch's length alone, measured from the last milestone)."
  }),
  max_model_calls: external_exports.number().int().positive().nullable().default(null),
  max_tool_calls: external_exports.number().int().positive().nullable().default(null),
  max_tool_calls_per_turn: external_exports.number().int().positive().nullable().default(null),
  max_input_tokens: external_exports.number().int().positive().nullable().default(null),
  max_context_tokens: external_exports.number().int().positive().nullable().default(null),
  max_cost_usd: external_exports.number().positive().nullable().default(null)
});
var findingKindSchema = external_exports.enum([
  "identical-streak",
  "short-cycle",
  "revert-cycle",
  "no-new-information",
  "no-milestone",
  "budget"
]);
var progressFindingSchema = external_exports.strictObject({
  kind: findingKindSchema,
  /** First and last step (TraceStep.index) of the flagged segment; budgets: the step that crossed. */
  from_step: external_exports.number().int().nonnegative(),
  to_step: external_exports.number().int().nonnegative(),
  /** Where in the file the segment starts, as the parser names it. */
  at: external_exports.string(),
  why: external_exports.string(),
  /**
   * A short excerpt for people: the call that repeated, the programs a milestone-less stretch
   * kept running and its first call, the restores of a cycle. The agent's text: shown as data.
   */
  excerpt: external_exports.string().max(400).nullable().default(null)
});
var budgetsSchema = external_exports.strictObject({
  model_calls: countSchema,
  tool_calls: countSchema.meta({ description: "Tool calls issued." }),
  executed_tool_calls: countSchema.meta({ description: "Tool calls that returned a result." }),
  max_tool_calls_per_turn: countSchema,
  max_tool_calls_per_model_call: countSchema,
  turns: countSchema,
  input_tokens: countSchema.meta({
    description: "Billed input tokens over all model calls (cache reads and writes included), each call once."
  }),
  cached_input_tokens: countSchema,
  output_tokens: countSchema,
  peak_context_tokens: countSchema.meta({
    description: "The largest input of a single model call."
  }),
  cost_usd: external_exports.number().nonnegative().nullable()
});
var PROGRESS_REPORT_VERSION = 1;
var progressReportSchema = external_exports.strictObject({
  version: external_exports.literal(PROGRESS_REPORT_VERSION),
  format: traceFormatSchema,
  /** Records (lines, messages, events) read, and those skipped as not tool-related. */
  records: countSchema,
  steps: countSchema,
  /** How the run ended, when the trace says (exit_status, a final error). */
  exit_status: external_exports.string().nullable(),
  counters: external_exports.strictObject({
    new_information: countSchema,
    no_new_information: countSchema,
    milestones: countSchema,
    steps_since_last_milestone: countSchema,
    longest_without_milestone: countSchema,
    longest_without_new_information: countSchema,
    reverts: countSchema
  }),
  budgets: budgetsSchema,
  infrastructure_failures: external_exports.array(
    external_exports.strictObject({ kind: external_exports.string(), at: external_exports.string(), message: external_exports.string() })
  ),
  infrastructure_failure_count: countSchema,
  findings: external_exports.array(progressFindingSchema),
  /** Findings past the report's list limit, counted only. */
  findings_not_listed: countSchema,
  /** A no-progress finding (not a loop or budget finding alone): the evaluator is told. */
  stalled: external_exports.boolean(),
  thresholds: progressThresholdsSchema
});
var TRACE_FILES_LIMIT = 20;
var TRACE_REPORT_FILE_NAME = "trace-report.json";
var TRACE_REPORT_ARTIFACT_PREFIX = "agate-trace-report";
var traceReportArtifactName = (runAttempt2) => `${TRACE_REPORT_ARTIFACT_PREFIX}-attempt-${runAttempt2}`;
var traceOutcomeSchema = external_exports.strictObject({
  /** The trace file, relative to the working directory when it is inside it. */
  source: external_exports.string(),
  report: progressReportSchema.nullable(),
  /** Why the trace could not be read; null when `report` is there. */
  error: external_exports.string().nullable()
});
var traceReportFileSchema = external_exports.array(traceOutcomeSchema).max(TRACE_FILES_LIMIT);

// action/upload.ts
var RecordUploadError = class extends Error {
  constructor(message, tampering) {
    super(message);
    this.tampering = tampering;
  }
  tampering;
  name = "RecordUploadError";
};
async function loadArtifactClient(env) {
  if (!env.ACTIONS_RUNTIME_TOKEN || !env.ACTIONS_RESULTS_URL) return null;
  return import("./artifact-25RXPMML.js");
}
async function uploadTraceReport(json, options) {
  const name = traceReportArtifactName(runAttempt(options.env));
  if (!options.client) return `not uploaded (not on a GitHub Actions runner)`;
  mkdirSync(options.tempDir, { recursive: true });
  const dir = mkdtempSync(join(options.tempDir, "trace-"));
  const file = join(dir, TRACE_REPORT_FILE_NAME);
  writeFileSync(file, json);
  try {
    const { id } = await new options.client.DefaultArtifactClient().uploadArtifact(
      name,
      [file],
      dir
    );
    return `the artifact \`${name}\` (id ${id ?? "unknown"})`;
  } catch (error) {
    return `not uploaded: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
async function uploadRecord(json, options) {
  const name = recordArtifactName(runAttempt(options.env));
  if (!options.client) return { kind: "not-on-runner", name };
  mkdirSync(options.tempDir, { recursive: true });
  const dir = mkdtempSync(join(options.tempDir, "upload-"));
  const file = join(dir, RECORD_FILE_NAME);
  writeFileSync(file, json);
  try {
    const { id, size } = await new options.client.DefaultArtifactClient().uploadArtifact(
      name,
      [file],
      dir
    );
    if (id === void 0) {
      throw new RecordUploadError(
        `agate: the artifact service accepted ${name} but returned no artifact id; the App cannot find the record. Re-run the job.`,
        false
      );
    }
    return { kind: "uploaded", name, id, size: size ?? 0 };
  } catch (error) {
    throw uploadError(name, error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
function uploadError(name, error) {
  if (error instanceof RecordUploadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const kind = error instanceof Error ? error.name : "";
  if (/\(409\)/.test(message) || /already exists/i.test(message)) {
    return new RecordUploadError(
      `agate: the job was tampered with: an artifact named ${name} already exists in this run attempt, uploaded by something else in the job before agate (the pull request's code can read the runner's token from /proc). The App will refuse the record of this attempt. Find what uploaded it in this job's steps; re-running the job starts a new attempt. (${message})`,
      true
    );
  }
  const fix = kind === "GHESNotSupportedError" ? "artifacts of this kind are not available on GitHub Enterprise Server" : kind === "UsageError" ? "the artifact storage quota is used up: delete old artifacts or raise the quota, then re-run the job" : kind === "NetworkError" ? "the runner cannot reach GitHub's artifact service: allow it (self-hosted runners), then re-run the job" : "re-run the job; if it fails again, check GitHub's status and the runner's access to the artifact service";
  return new RecordUploadError(
    `agate: could not upload the command record as the artifact ${name}: ${message}. The App cannot see this run's evidence without it: ${fix}.`,
    false
  );
}

export {
  normaliseLine,
  normaliseOutput,
  shortSha,
  tableCell,
  codeSpan,
  durationText,
  counted,
  displayTail,
  outputDetails,
  outcomeText,
  gitShaSchema,
  repositoryFullNameSchema,
  githubLoginSchema,
  positiveIntSchema,
  RECORD_FILE_NAME,
  CHANGED_PATHS_LIMIT,
  OUTPUT_TAIL_BYTES,
  commandRecordSchema,
  TRACE_FORMATS,
  progressThresholdsSchema,
  PROGRESS_REPORT_VERSION,
  TRACE_FILES_LIMIT,
  FILE_COMMANDS,
  commandEnvironment,
  runnerInfo,
  workflowRun,
  RecordUploadError,
  loadArtifactClient,
  uploadTraceReport,
  uploadRecord
};
