/**
 * The verdict as data inside the `agate` check run's summary: one hidden line at its very end,
 *
 *   <!-- agate-status v1 {"version":1,...} -->
 *
 * GitHub renders an HTML comment as nothing, and returns the summary as written to any reader
 * with `checks: read`, so `agate-gate status` gets data without scraping the Markdown above it.
 *
 * Attack: the summary quotes what the pull request's code printed (a failing command's output),
 * and that output can hold a line that looks like a block saying "accepted". The block is
 * therefore only ever the summary's last line, which the App writes after everything quoted; a
 * reader takes that line or nothing. Inside the JSON, `<`, `>` and `&` are written as \u escapes,
 * so no text in it can end the comment early. Who wrote the check run at all (only the App's own
 * `agate` check is the gate) is the reader's to check: action/cli/status-github.ts.
 */

import { z } from "zod";
import {
  GATE_STATUS_VERSION,
  type GateStatus,
  gateStatusSchema,
} from "../../schemas/gate-status.js";
import { STATUS_TAIL_CHARS } from "../../schemas/gate-status-constants.js";

const OPEN = "<!-- agate-status v";
const CLOSE = " -->";

/** At most this many characters of a summary go to the block; the Markdown gets the rest. */
export const STATUS_BLOCK_LIMIT = 24_000;

/** How many work items, missing items and findings the block keeps, and how long each. */
const LIST_ITEMS = 50;
const ITEM_CHARS = 1_000;

const escapeForComment = (json: string) =>
  json
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/@/g, "\\u0040");

function line(status: GateStatus): string {
  return `${OPEN}${status.version} ${escapeForComment(JSON.stringify(status))}${CLOSE}`;
}

const bounded = (items: string[]) => items.slice(0, LIST_ITEMS).map((i) => i.slice(0, ITEM_CHARS));

/**
 * The block, on a line of its own after a blank line, within STATUS_BLOCK_LIMIT: the lists are
 * bounded, and the failing commands' output shortened (their end kept) until it fits.
 */
export function statusBlock(status: GateStatus, limit = STATUS_BLOCK_LIMIT): string {
  let fitted: GateStatus = {
    ...status,
    title: status.title.slice(0, ITEM_CHARS),
    next: bounded(status.next),
    evaluator_missing: bounded(status.evaluator_missing),
    handoff_problems: bounded(status.handoff_problems),
    requirements: status.requirements.map((r) => ({ ...r, reason: r.reason.slice(0, ITEM_CHARS) })),
  };
  for (let chars = STATUS_TAIL_CHARS; ; chars = Math.floor(chars / 2)) {
    const text = `\n${line(fitted)}\n`;
    if (text.length <= limit || chars < 50) return text;
    fitted = {
      ...fitted,
      failing_commands: fitted.failing_commands.map((c) => ({
        ...c,
        output_tail: c.output_tail.slice(-chars),
      })),
    };
  }
}

export type ReadStatusBlock =
  | { ok: true; status: GateStatus }
  | { ok: false; reason: "none" | "version" | "invalid"; detail: string };

/** The block the App wrote at the end of a summary, or why there is none to believe. */
export function readStatusBlock(summary: string): ReadStatusBlock {
  const last = summary.trimEnd().split("\n").at(-1) ?? "";
  if (!last.startsWith(OPEN) || !last.endsWith(CLOSE)) {
    return { ok: false, reason: "none", detail: "the summary does not end with a status block" };
  }
  const body = last.slice(OPEN.length, -CLOSE.length);
  const space = body.indexOf(" ");
  const version = Number(body.slice(0, space));
  if (version !== GATE_STATUS_VERSION) {
    return {
      ok: false,
      reason: "version",
      detail: `the App writes status version ${body.slice(0, space)}, this CLI reads version ${GATE_STATUS_VERSION}: use the agate-gate version that matches the App`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(body.slice(space + 1));
  } catch (error) {
    return { ok: false, reason: "invalid", detail: `not JSON: ${(error as Error).message}` };
  }
  const parsed = gateStatusSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, reason: "invalid", detail: z.prettifyError(parsed.error) };
  }
  return { ok: true, status: parsed.data };
}
