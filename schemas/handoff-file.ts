import { z } from "zod";

export const handoffStatusSchema = z.enum(["in-progress", "ready", "blocked"]);

/** The YAML front matter of a handoff file (default `.agate/handoff.md`). */
export const handoffFrontMatterSchema = z.strictObject({
  task: z
    .string()
    .min(1)
    .meta({ description: "The task served: an issue reference such as #12, or one line." }),
  branch: z.string().min(1),
  status: handoffStatusSchema,
  changed_files: z
    .array(z.string().min(1))
    .meta({ description: "Every file the branch changes against its base." }),
  last_command: z
    .strictObject({
      run: z.string().min(1),
      exit_code: z.number().int(),
      output_tail: z.string().default(""),
    })
    .nullable()
    .default(null),
  next_step: z
    .string()
    .default("")
    .meta({ description: "The next unresolved step; empty when none." }),
  open_items: z.array(z.string().min(1)).default([]),
});

export type HandoffFrontMatter = z.output<typeof handoffFrontMatterSchema>;
