import { z } from "zod";
import {
  gitShaSchema,
  isoDateTimeSchema,
  nonNegativeIntSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
  sha256HexSchema,
} from "./primitives.js";

/**
 * The record leaves the job as a workflow artifact: one per run attempt, named for the attempt,
 * holding one file. The job that runs the pull request's code has no write token; the App reads
 * the artifact with `actions: read` and believes it only when GitHub's data about the run agrees.
 */
export const RECORD_ARTIFACT_PREFIX = "agate-command-record";
export const RECORD_FILE_NAME = "command-record.json";
export const recordArtifactName = (runAttempt: number): string =>
  `${RECORD_ARTIFACT_PREFIX}-attempt-${runAttempt}`;

/** At most this many changed paths are listed per command; the rest is counted. */
export const CHANGED_PATHS_LIMIT = 100;

/** Size of the output tail kept in a record; the full output is only digested. */
export const OUTPUT_TAIL_BYTES = 64 * 1024;

export const commandOutputSchema = z.strictObject({
  bytes: nonNegativeIntSchema,
  sha256: sha256HexSchema.meta({
    description: "sha256 of the raw output (stdout and stderr as interleaved).",
  }),
  normalized_sha256: sha256HexSchema.meta({
    description:
      "sha256 after volatile text (colours, timestamps, durations, temp paths) is removed.",
  }),
  tail: z
    .string()
    .meta({ description: `The last ${OUTPUT_TAIL_BYTES} bytes of output, as UTF-8.` }),
  truncated: z.boolean().meta({ description: "The tail is not the whole output." }),
});

export const commandResultSchema = z.strictObject({
  name: z.string().min(1),
  run: z.string().min(1),
  exit_code: z
    .number()
    .int()
    .nullable()
    .meta({ description: "null when killed by a signal or timeout." }),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  started_at: isoDateTimeSchema,
  duration_ms: nonNegativeIntSchema,
  output: commandOutputSchema,
  changed_paths: z.array(z.string()).meta({
    description: `Paths whose content or existence in the work tree differs after this command from just before it (modified, added, deleted; new files unless ignored), relative to the repository root, sorted; at most ${CHANGED_PATHS_LIMIT}.`,
  }),
  changed_paths_count: nonNegativeIntSchema.meta({
    description: "How many paths changed, listed or not.",
  }),
  privileged: z.boolean().optional().meta({
    description:
      "true: the base config marks this command privileged (`commands[].privileged`), so it ran as agate's own user, not as the commands user, and could have changed this record. Absent: it did not.",
  }),
});

export const testedSnapshotSchema = z.strictObject({
  sha: gitShaSchema.meta({
    description: "`git rev-parse HEAD` where the commands ran (a merge commit on pull_request).",
  }),
  tree_sha: gitShaSchema,
  parents: z.array(gitShaSchema).meta({
    description:
      "As the checkout knows them: empty in a shallow clone. The App reads the parents from GitHub, never from here.",
  }),
  clean_before: z.boolean().meta({
    description:
      "The work tree matched the tested commit when the first command started (nothing an earlier step wrote).",
  }),
  dirty_before: z.array(z.string()).meta({
    description: `Paths that differed before the first command, at most ${CHANGED_PATHS_LIMIT}.`,
  }),
  clean: z
    .boolean()
    .meta({ description: "The work tree had no changed or untracked files afterwards." }),
  dirty_digest: sha256HexSchema.nullable().meta({
    description:
      "sha256 over path and blob hash of each changed or untracked file; null when clean.",
  }),
});

export const pullRequestRefSchema = z.strictObject({
  number: positiveIntSchema,
  head_sha: gitShaSchema,
  base_sha: gitShaSchema,
});

export const mergeGroupRefSchema = z.strictObject({
  head_ref: z.string().min(1),
  head_sha: gitShaSchema,
  base_sha: gitShaSchema,
});

export const runnerSchema = z.strictObject({
  os: z.string(),
  arch: z.string(),
  image_version: z.string().nullable(),
  node_version: z.string(),
});

export const workflowRunRefSchema = z.strictObject({
  run_id: positiveIntSchema,
  run_attempt: positiveIntSchema,
  workflow_ref: z.string().min(1),
  job: z.string().min(1),
  event_name: z.string().min(1),
});

/**
 * How the commands ran. Anything that shares a uid with agate can reach into it (a signal opens
 * Node's inspector; /proc/<pid>/environ and mem; ptrace), so the Action runs them as a user of
 * their own, made for the job, without sudo, and kills every process of it after each command.
 * Where it cannot (no passwordless sudo and not root), they run as agate's user and the record
 * says why. This is the job's own word like the rest of the record: the App believes a passing
 * record only under the base config's `evidence.isolation`, and the Action refuses to run the
 * commands unisolated at all when that says `required`.
 */
export const isolationSchema = z.strictObject({
  mode: z.enum(["user", "shared"]).meta({
    description:
      "`user`: the commands ran as a user of their own, not agate's, without sudo or root; `shared`: as agate's own user, so they could have changed this record.",
  }),
  user: z.string().min(1).meta({ description: "The user the commands ran as." }),
  uid: nonNegativeIntSchema,
  reason: z.string().nullable().meta({
    description: "`shared`: why agate could not run them as a user of their own. null otherwise.",
  }),
  swept: z.enum(["user", "process-group"]).meta({
    description:
      "What agate killed after each command: `user`, every process of the commands user (a daemon, a double fork, setsid: all); `process-group`, the command's process group (a process that left it with setsid was not seen).",
  }),
});

export const graderVersionSchema = z.strictObject({
  agate_version: z.string().min(1),
  config_digest: sha256HexSchema,
});

/** What the Action observed on the runner. agate writes it; the agent never does. */
export const commandRecordSchema = z.strictObject({
  kind: z.literal("agate.command-record"),
  version: z.literal(2).meta({
    description:
      "2: published as a workflow artifact, with the work tree's state before and after each command.",
  }),
  repository: repositoryFullNameSchema
    .nullable()
    .meta({ description: "null for a local `agate run`." }),
  tested: testedSnapshotSchema,
  pull_request: pullRequestRefSchema.nullable(),
  merge_group: mergeGroupRefSchema.nullable(),
  commands: z.array(commandResultSchema),
  runner: runnerSchema,
  grader: graderVersionSchema,
  workflow: workflowRunRefSchema.nullable().meta({ description: "null outside GitHub Actions." }),
  isolation: isolationSchema.optional().meta({
    description:
      "How the commands ran. Absent in records made before agate ran them as a user of their own: they ran as agate's user.",
  }),
  cut: z.array(z.string()).default([]).meta({
    description: "What was shortened to fit a size limit, such as `commands[2].output.tail`.",
  }),
  created_at: isoDateTimeSchema,
});

export type CommandOutput = z.infer<typeof commandOutputSchema>;
export type CommandResult = z.infer<typeof commandResultSchema>;
export type TestedSnapshot = z.infer<typeof testedSnapshotSchema>;
export type CommandRecord = z.output<typeof commandRecordSchema>;
export type Isolation = z.infer<typeof isolationSchema>;
