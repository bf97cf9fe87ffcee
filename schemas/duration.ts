import { z } from "zod";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
type Unit = keyof typeof UNIT_MS;

/** One positive whole number and one unit; compound forms such as 1h30m are written 90m. */
export const DURATION_PATTERN = /^([1-9][0-9]*)(ms|s|m|h|d)$/;

const durationMessage = (input: unknown): string =>
  typeof input === "number"
    ? `${input} is not a duration: write the unit, such as ${input}s or ${input}m`
    : `${JSON.stringify(input)} is not a duration such as 90s, 10m or 1h`;

/** Parses `90s`, `10m`, `1h`, `2d` or `500ms` into milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as Unit];
}

/**
 * A duration in the config: written as text with a unit, parsed to milliseconds. Two spellings
 * of the same time (60s, 1m) parse to the same number, so they give the same config digest.
 */
export const durationSchema = z
  .string({ error: (issue) => durationMessage(issue.input) })
  .regex(DURATION_PATTERN, { error: (issue) => durationMessage(issue.input) })
  .transform((text) => parseDuration(text) as number);
