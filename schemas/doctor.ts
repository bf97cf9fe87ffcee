/**
 * What `agate-gate doctor` concludes, and what `--json` prints: a repository's set-up as far as
 * GitHub's API shows it (checks/setup/). The App shows one of these findings (the required
 * check) in its summary.
 */
import { z } from "zod";

/**
 * ok; a problem to fix (doctor exits 1); could not check (with why); advice: not a problem, a
 * window the set-up leaves that one more setting closes (doctor still exits 0).
 */
export const findingStatusSchema = z.enum(["ok", "problem", "could-not-check", "advice"]);

export const findingSchema = z.strictObject({
  check: z.enum([
    "config",
    "workflow",
    "workflow permissions",
    "required check",
    "merge queue",
    "app",
    "installation",
  ]),
  status: findingStatusSchema,
  /** What was found, one line. */
  summary: z.string(),
  /** What to do about it, one line; null when there is nothing to do. */
  fix: z.string().nullable(),
  /** Supporting lines (a config's problems), shown indented. */
  details: z.array(z.string()).optional(),
});

/** `agate-gate doctor --json`'s output. */
export const doctorReportSchema = z.strictObject({
  repository: z.string(),
  default_branch: z.string(),
  findings: z.array(findingSchema),
});

export type FindingStatus = z.infer<typeof findingStatusSchema>;
export type Finding = z.infer<typeof findingSchema>;
export type DoctorReport = z.infer<typeof doctorReportSchema>;
