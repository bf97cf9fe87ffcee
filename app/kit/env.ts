/**
 * Reading settings from the environment, for any room that has some: a variable's parsers (a
 * blank one is unset, numbers and durations in bounds, one of a list, an http(s) URL), each
 * refusal saying what to set, and the error that lists every problem at once.
 */
import { z } from "zod";
import { parseDuration } from "../../schemas/duration.js";

export type Environment = Readonly<Record<string, string | undefined>>;

/** An empty variable (`APP_ID=` in a unit file) means unset, as in Probot. */
export const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

export const optionalText = z.preprocess(blankToUndefined, z.string().optional());

export function requiredText(missing: string) {
  return z.preprocess(blankToUndefined, z.string({ error: missing }));
}

export function wholeNumber(name: string, min: number, max: number, fix: string, fallback: number) {
  const invalid = (input: unknown) => `${name} is ${JSON.stringify(input)}: ${fix}`;
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, { error: (issue) => invalid(issue.input), abort: true })
      .refine((text) => Number(text) >= min && Number(text) <= max, {
        error: (issue) => invalid(issue.input),
      })
      .transform(Number)
      .default(fallback),
  );
}

/** A duration such as 90s, 10m or 36h (schemas/duration.ts), at least `minMs`, in milliseconds. */
export function duration(name: string, fix: string, fallback: string, minMs = 0) {
  return optionalText.pipe(
    z
      .string()
      .default(fallback)
      .refine((text) => (parseDuration(text) ?? -1) >= minMs, {
        error: (issue) => `${name} is ${JSON.stringify(issue.input)}: ${fix}`,
      })
      .transform((text) => parseDuration(text) as number),
  );
}

export function oneOf<const T extends readonly [string, ...string[]]>(
  name: string,
  values: T,
  fallback: T[number],
) {
  return z.preprocess(
    blankToUndefined,
    z
      .enum(values, {
        error: (issue) =>
          `${name} is ${JSON.stringify(issue.input)}: use one of ${values.join(", ")}, or leave it unset for ${fallback}`,
      })
      .default(fallback),
  );
}

/** An absolute http: or https: URL. */
export function isHttpUrl(text: string): boolean {
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
}

/**
 * Where the variables came from besides the environment: a `.env` file (app/main.ts reads the
 * one in the working directory) and the names it set that the environment did not.
 */
export interface EnvFile {
  path: string;
  names: readonly string[];
}

/** The settings are wrong; `problems` has one line per setting, each saying what to set. */
export class SettingsError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], envFile?: EnvFile) {
    // Say where to edit: a value from .env is fixed in the file, not in the environment.
    const where = (problem: string) =>
      envFile?.names.some((name) => problem.startsWith(`${name} `))
        ? `${problem} [set in ${envFile.path}]`
        : problem;
    const source = envFile
      ? `environment variables and ${envFile.path}, where a variable set in the environment wins`
      : "environment variables";
    super(
      `agate cannot start: ${problems.length === 1 ? "a setting is" : `${problems.length} settings are`} ` +
        `missing or invalid (${source}):\n${problems.map((p) => `  - ${where(p)}`).join("\n")}`,
    );
    this.name = "SettingsError";
    this.problems = problems;
  }
}
