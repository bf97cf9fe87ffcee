import { z } from "zod";
import { durationSchema } from "./duration.js";
import { githubLoginSchema, positiveIntSchema } from "./primitives.js";
import { progressThresholdsSchema } from "./trace.js";

/** Where agate reads its config, always at the pull request's base commit. */
export const CONFIG_PATH = ".github/agate.yml";

/** Paths that are protected whatever the config says: CI and agate's own config. */
export const ALWAYS_PROTECTED_PATHS = [".github/**", CONFIG_PATH] as const;

const nonEmpty = (what: string) => z.string().min(1, { error: `${what} must not be empty` });

const globSchema = nonEmpty("a glob pattern").meta({
  description: "A glob such as `codex/**` or `tests/acceptance/**` (picomatch syntax).",
});

const labelSchema = nonEmpty("a label name");

export const commandSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._:/-]*$/, {
        error: (issue) =>
          `${JSON.stringify(issue.input)} is not a command name: use letters, digits, spaces and . _ : / -, such as "unit tests"`,
      })
      .meta({
        description: "Short name shown in the check-run summary, unique in the list.",
        examples: ["unit tests"],
      }),
    run: nonEmpty("a command's run").meta({
      description: "Shell text, run by `bash -eo pipefail` at the repository root.",
      examples: ["npm test"],
    }),
    timeout: durationSchema.prefault("10m").meta({
      description: "Wall-clock limit such as 90s, 10m or 1h; the whole process tree is killed.",
    }),
    writes: z
      .array(globSchema)
      .default([])
      .meta({
        description:
          "Tracked or unignored paths this command may change (globs). A change anywhere else makes the record not believed: a command that edits the code it tests has not tested the commit.",
        examples: [["coverage/**"]],
      }),
    privileged: z.boolean().default(false).meta({
      description:
        "Run this command as agate's own user (with the runner's sudo, if it has one), not as the unprivileged commands user: for a command that needs root or Docker. Such a command could forge the record, so a passing record with one counts only once a maintainer accepts the exact commit (`/agate accept`). Prefer installing what it needs in a step before agate.",
    }),
  })
  .meta({ description: "A command that must exit 0 on the tested commit." });

export const gateSchema = z
  .strictObject({
    all: z.boolean().default(true).meta({
      description:
        "Gate every pull request, whoever opened it (the default). Set false to gate only what authors, labels or branches select; labels and branch names are the author's choice, so only authors narrow safely.",
    }),
    authors: z.array(githubLoginSchema).default([]).meta({
      description:
        "Logins whose pull requests are gated (agent accounts and apps, e.g. `my-agent[bot]`).",
    }),
    labels: z.array(labelSchema).default(["agent"]).meta({
      description:
        "A pull request carrying any of these labels is gated. Removing it later does not ungate it.",
    }),
    branches: z
      .array(globSchema)
      .default(["codex/**", "claude/**", "copilot/**", "devin/**", "openhands/**", "agent/**"])
      .meta({ description: "Head-branch globs whose pull requests are gated." }),
    report_only: z.boolean().default(false).meta({
      description:
        "Adopt agate gradually: the agate check always concludes neutral (it never blocks a merge or a merge queue) and its summary shows what agate would have decided; no state labels are set. Everything else (records, the evaluator, budgets) runs as when enforced.",
    }),
  })
  .meta({
    description: "Which pull requests agate gates. Any match gates; nothing here can ungate.",
  });

const minScoreSchema = z
  .number()
  .min(0, { error: "min_score is a score between 0 and 1" })
  .max(1, { error: "min_score is a score between 0 and 1" })
  .default(0.8)
  .meta({ description: "The evaluator's score must be at least this (0..1)." });

const rubricSchema = z
  .string()
  .default("")
  .meta({ description: "Extra acceptance criteria given to the evaluator, from the base branch." });

export const evaluatorSchema = z
  .discriminatedUnion(
    "kind",
    [
      z.strictObject({ kind: z.literal("none") }),
      z.strictObject({
        kind: z.literal("llm"),
        provider: z.enum(["openai", "anthropic"]).default("openai").meta({
          description:
            "`openai`: any OpenAI-compatible Chat Completions endpoint; `anthropic`: the Messages API.",
        }),
        model: nonEmpty("evaluator.model").meta({ examples: ["gpt-4.1-mini"] }),
        base_url: z
          .url({ error: "base_url must be an absolute URL such as http://localhost:8000/v1" })
          .optional()
          .meta({
            description: "Endpoint base URL; absent means the provider's public endpoint.",
          }),
        min_score: minScoreSchema,
        rubric: rubricSchema,
      }),
      z.strictObject({
        kind: z.literal("command"),
        run: nonEmpty("evaluator.run").meta({
          description:
            "Executable that reads the evaluation bundle as JSON on stdin and prints a verdict.",
        }),
        timeout: durationSchema.prefault("10m"),
        min_score: minScoreSchema,
        rubric: rubricSchema,
      }),
      z.strictObject({ kind: z.literal("review") }),
    ],
    {
      error: (issue) =>
        issue.code === "invalid_union"
          ? `${JSON.stringify((issue.input as { kind?: unknown } | undefined)?.kind)} is not an evaluator kind: use none, llm, command or review`
          : undefined,
    },
  )
  .prefault({ kind: "none" })
  .meta({
    description: "Who signs off after every command passed. Default: none (commands only).",
  });

const optionalLimit = (description: string) =>
  positiveIntSchema
    .nullable()
    .default(null)
    .meta({ description: `${description} null: rule off.` });

export const handoffSchema = z
  .strictObject({
    path: nonEmpty("handoff.path").default(".agate/handoff.md"),
    required_when: z
      .strictObject({
        commits_over: optionalLimit("Required when the pull request has more commits than this."),
        open_longer_than: durationSchema.nullable().default(null).meta({
          description:
            "Required when the pull request has been open longer than this. null: rule off.",
        }),
        changed_lines_over: optionalLimit("Required when more lines than this changed."),
        labels: z.array(labelSchema).default(["long-task"]),
        sessions_over: positiveIntSchema.nullable().default(1).meta({
          description:
            "Required when more distinct `Agent-Session:` commit trailers than this appear.",
        }),
      })
      .prefault({}),
  })
  .prefault({})
  .meta({ description: "The handoff file long tasks must carry at their head commit." });

export const budgetsSchema = z
  .strictObject({
    graded_attempts_per_pr: positiveIntSchema.default(10).meta({
      description: "Head SHAs graded per pull request before it is capped.",
    }),
    evaluator_calls_per_tree: positiveIntSchema.default(1).meta({
      description: "Successful evaluator calls per tree SHA.",
    }),
    evaluator_calls_per_pr_per_day: positiveIntSchema.default(10),
    evaluator_bundle_tokens: positiveIntSchema.default(60_000).meta({
      description: "Ceiling on the estimated tokens of what the evaluator is shown.",
    }),
    unchanged_failures_before_stalled: positiveIntSchema.default(3).meta({
      description:
        "Consecutive failures with identical normalised output before the pull request is stalled.",
    }),
  })
  .prefault({});

export const escalationSchema = z
  .strictObject({
    maintainers: z
      .array(
        z.string().regex(/^@?[A-Za-z0-9-]+(\/[A-Za-z0-9_.-]+)?(\[bot\])?$/, {
          error: (issue) =>
            `${JSON.stringify(issue.input)} is neither a login (octocat) nor a team (@my-org/maintainers)`,
        }),
      )
      .default([])
      .meta({
        description:
          "Logins or @org/team slugs: mentioned once when a handoff entry is escalated (empty: nobody is mentioned, and the entry's comment says so), and the maintainers whose approval counts for protected paths, who may /agate accept a commit and who decide entries (empty: anyone with write access). Only a person's account counts, never a bot.",
      }),
    unanswered_timeout: durationSchema.prefault("30m"),
    claim_timeout: durationSchema.prefault("10m"),
    follow_up_limit: z.number().int().nonnegative().default(1),
    claim_expiries_before_blocked: positiveIntSchema.default(2),
  })
  .prefault({});

/** Where a workflow's file lives; the App compares it with the run's `path`. */
const workflowPathSchema = z.string().regex(/^\.github\/workflows\/[^/]+\.ya?ml$/, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a workflow file: use a path such as .github/workflows/agate.yml`,
});

const nameSchema = (what: string) =>
  z
    .string()
    .min(1, { error: `${what} must not be empty` })
    .max(100, { error: `${what} must be at most 100 characters` });

/**
 * The one place evidence may come from. The App believes a command record only from a run of
 * this workflow file, this job and this step, so no other workflow (or token) can supply one.
 */
export const evidenceSchema = z
  .strictObject({
    workflow: workflowPathSchema.default(".github/workflows/agate.yml").meta({
      description:
        "The workflow file whose runs carry the evidence, on pull_request and merge_group.",
    }),
    job: nameSchema("evidence.job").default("agate-commands").meta({
      description:
        "The job (its key, or its `name:` when it has one) that runs the agate Action. Not `agate`: GitHub makes a check run named after each job, and `agate` is the gate's own check.",
    }),
    step: nameSchema("evidence.step").default("agate").meta({
      description:
        "The `name:` of the step that runs the agate Action; the runner's conclusion for it must agree with the record.",
    }),
    isolation: z.enum(["required", "shared-allowed"]).default("required").meta({
      description:
        "`required`: a passing record counts only when the commands ran as a user of their own, which the Action sets up through the runner's passwordless sudo (GitHub-hosted runners have it) or as root; without one, the Action refuses to run them. `shared-allowed`: on a self-hosted runner without sudo, the commands may run as agate's own user, which lets the code under test change the record; the summary says so.",
    }),
  })
  .prefault({})
  .meta({ description: "Where command records come from: one workflow, job and step." });

export const mergeQueueSchema = z
  .strictObject({
    record_timeout: durationSchema.prefault("30m").meta({
      description:
        "How long a merge group waits for its command record before the agate check fails; every checks request gets an answer.",
    }),
  })
  .prefault({})
  .meta({
    description: "The merge queue: a merge group is accepted only on evidence for its own head.",
  });

/**
 * `extends`: organisation-wide defaults from the owner's `.github` repository at a pinned commit.
 * checks/config/extends.ts parses it first, with messages that say what is wrong; this pattern is
 * what editors check and what the merged config is held to.
 */
export const extendsSchema = z
  .string()
  .regex(/^[A-Za-z0-9-]+\/\.github:[^@\s]+@[0-9a-f]{40}$/, {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not <owner>/.github:<path>@<40-hex commit SHA>`,
  })
  .optional()
  .meta({
    description:
      "Organisation-wide defaults: `<owner>/.github:<path>@<40-hex commit SHA>`, a file in this repository's owner's .github repository at a pinned commit. This file is merged on top of it (maps key by key, this file's value wins; lists and scalars replaced whole); the defaults may not extend others.",
    examples: ["my-org/.github:agate/defaults.yml@0123456789abcdef0123456789abcdef01234567"],
  });

export const configSchema = z
  .strictObject({
    version: z
      .literal(1, { error: "version must be 1, the only config version this agate reads" })
      .meta({ examples: [1] }),
    gate: gateSchema.prefault({}),
    commands: z
      .array(commandSchema)
      .min(1, { error: "needs at least one command, such as - { name: test, run: npm test }" })
      .superRefine((commands, ctx) => {
        const seen = new Set<string>();
        commands.forEach((command, index) => {
          if (seen.has(command.name)) {
            ctx.addIssue({
              code: "custom",
              path: [index, "name"],
              input: command.name,
              message: `${JSON.stringify(command.name)} is used by an earlier command: names must be unique`,
            });
          }
          seen.add(command.name);
        });
      })
      .meta({ examples: [[{ name: "test", run: "npm test" }]] }),
    protected_paths: z
      .array(globSchema)
      .default([])
      .meta({
        description: `Globs that need a maintainer's approval to change; ${ALWAYS_PROTECTED_PATHS.join(" and ")} always do.`,
      }),
    evidence: evidenceSchema,
    evaluator: evaluatorSchema,
    handoff: handoffSchema,
    budgets: budgetsSchema,
    escalation: escalationSchema,
    merge_queue: mergeQueueSchema,
    // The detector's own schema, so its defaults and the config's cannot drift apart.
    progress: progressThresholdsSchema.prefault({}).meta({
      description:
        "Thresholds of the per-trace progress detector (docs/progress.md): when a stretch of an agent's trace is flagged, and opt-in budgets.",
    }),
    // Last, so the keys a file usually starts with are listed first in "takes ..." messages.
    extends: extendsSchema,
  })
  .meta({
    title: "agate config (.github/agate.yml)",
    description: "Read from the pull request's base branch.",
  });

/** The config with every default applied and durations in milliseconds. */
export type Config = z.output<typeof configSchema>;
export type EvaluatorConfig = Config["evaluator"];
