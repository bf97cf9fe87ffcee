import { z } from "zod";
import { gitShaSchema, positiveIntSchema, repositoryFullNameSchema } from "./primitives.js";

const booleanInput = (name: string) =>
  z
    .enum(["true", "false"], {
      error: (issue) => `input ${name} must be true or false, got ${JSON.stringify(issue.input)}`,
    })
    .transform((value) => value === "true");

/** The Action's inputs as the runner passes them (strings); defaults match action.yml. */
export const actionInputsSchema = z.strictObject({
  token: z.string().default(""),
  config: z
    .string()
    .min(1, { error: "input config must name a file" })
    .default(".github/agate.yml"),
  "working-directory": z.string().min(1).default("."),
  "fail-on-command-failure": booleanInput("fail-on-command-failure").default(true),
  "record-path": z.string().default(""),
});

const repositorySchema = z.object({
  full_name: repositoryFullNameSchema,
  default_branch: z.string().min(1),
});

/** The parts of a pull_request event agate reads; GitHub sends much more. */
export const pullRequestEventSchema = z.object({
  pull_request: z.object({
    number: positiveIntSchema,
    head: z.object({ sha: gitShaSchema, ref: z.string() }),
    base: z.object({ sha: gitShaSchema, ref: z.string() }),
  }),
  repository: repositorySchema,
});

/** The parts of a merge_group event agate reads. */
export const mergeGroupEventSchema = z.object({
  merge_group: z.object({
    head_sha: gitShaSchema,
    head_ref: z.string().min(1),
    base_sha: gitShaSchema,
    base_ref: z.string().min(1),
  }),
  repository: repositorySchema,
});

export const anyEventSchema = z.object({ repository: repositorySchema.optional() });

export type PullRequestEvent = z.infer<typeof pullRequestEventSchema>;
export type MergeGroupEvent = z.infer<typeof mergeGroupEventSchema>;
