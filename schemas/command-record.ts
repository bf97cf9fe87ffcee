import { z } from "zod";
import {
  gitShaSchema,
  isoDateTimeSchema,
  nonNegativeIntSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
  sha256HexSchema,
} from "./primitives.js";

/** The check run the Action publishes its record in, and the App reads it from. */
export const COMMANDS_CHECK_NAME = "agate/commands";

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
});

export const testedSnapshotSchema = z.strictObject({
  sha: gitShaSchema.meta({
    description: "`git rev-parse HEAD` where the commands ran (a merge commit on pull_request).",
  }),
  tree_sha: gitShaSchema,
  parents: z.array(gitShaSchema),
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

export const graderVersionSchema = z.strictObject({
  agate_version: z.string().min(1),
  config_digest: sha256HexSchema,
});

/** What the Action observed on the runner. agate writes it; the agent never does. */
export const commandRecordSchema = z.strictObject({
  kind: z.literal("agate.command-record"),
  version: z.literal(1),
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
  cut: z.array(z.string()).default([]).meta({
    description: "What was shortened to fit a size limit, such as `commands[2].output.tail`.",
  }),
  created_at: isoDateTimeSchema,
});

export type CommandOutput = z.infer<typeof commandOutputSchema>;
export type CommandResult = z.infer<typeof commandResultSchema>;
export type TestedSnapshot = z.infer<typeof testedSnapshotSchema>;
export type CommandRecord = z.output<typeof commandRecordSchema>;
export type GraderVersion = z.infer<typeof graderVersionSchema>;
