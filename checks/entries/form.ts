/**
 * The body of a handoff entry, as GitHub renders an issue form (docs/issue-template/): one
 * `### <label>` heading per field, its answer below, `_No response_` for an empty optional one.
 * The CLI writes the same layout, so one parser reads both.
 */
import {
  type HandoffEntryFields,
  REQUIRED_ENTRY_FIELDS,
  type RequiredEntryField,
} from "../../schemas/handoff-entry.js";

/** The form's headings, by field; the first is what the form and the CLI write. */
export const FIELD_HEADINGS = {
  project: ["Project"],
  question: ["Question"],
  tried: ["Tried", "What was tried"],
  needed: ["Needed", "What is needed"],
  blocking_pull: ["Blocking pull request"],
} as const satisfies Record<keyof HandoffEntryFields, readonly string[]>;

/** What each required field is for, in the refusal. */
export const FIELD_PURPOSE: Record<RequiredEntryField, string> = {
  project: "which project or repository this is about",
  question: "the one thing that needs an answer",
  tried: "what was already tried and what happened, so the next agent skips that dead end",
  needed: "what answer or action would unblock it",
};

/** GitHub's text for an optional form field left empty. */
const NO_RESPONSE = "_No response_";

const HEADING = /^###[ \t]+(.+?)[ \t]*#*[ \t]*$/gm;

export type EntryForm =
  | { kind: "entry"; fields: HandoffEntryFields }
  | { kind: "refused"; missing: RequiredEntryField[]; problems: string[] }
  /** No heading of the form at all: an ordinary issue, not an entry. */
  | { kind: "not_an_entry" };

const fieldOf = (heading: string): keyof HandoffEntryFields | undefined => {
  const wanted = heading.trim().toLowerCase();
  for (const [field, names] of Object.entries(FIELD_HEADINGS)) {
    if (names.some((name) => name.toLowerCase() === wanted)) {
      return field as keyof HandoffEntryFields;
    }
  }
  return undefined;
};

/**
 * Each field's text, up to the next heading of the form: a heading of any other name is part of
 * the answer it is in (an agent may write Markdown). The first of a repeated heading counts.
 */
function sections(body: string): Map<keyof HandoffEntryFields, string> {
  const found = [...body.matchAll(HEADING)].filter((match) => fieldOf(match[1] ?? ""));
  const out = new Map<keyof HandoffEntryFields, string>();
  found.forEach((match, index) => {
    const field = fieldOf(match[1] ?? "");
    if (!field || out.has(field)) return;
    const start = (match.index ?? 0) + match[0].length;
    const end = found[index + 1]?.index ?? body.length;
    out.set(field, body.slice(start, end).trim());
  });
  return out;
}

const empty = (text: string | undefined) =>
  text === undefined || text === "" || text === NO_RESPONSE;

/** `#12`, `12` or a pull request URL; null when empty, a problem when it is something else. */
function pullNumber(text: string | undefined): number | null | string {
  if (empty(text)) return null;
  const match = /^(?:#|.*\/pull\/)?([1-9][0-9]*)\/?$/.exec((text ?? "").trim());
  if (!match) {
    return `blocking pull request: ${JSON.stringify((text ?? "").slice(0, 80))} is not a pull request; write its number, such as #12`;
  }
  return Number(match[1]);
}

/** Reads an entry's fields from an issue body; names every required field missing or empty. */
export function parseEntryForm(body: string | null): EntryForm {
  const found = sections((body ?? "").replace(/\r\n/g, "\n"));
  if (found.size === 0) return { kind: "not_an_entry" };
  const missing = REQUIRED_ENTRY_FIELDS.filter((field) => empty(found.get(field)));
  const pull = pullNumber(found.get("blocking_pull"));
  const problems = typeof pull === "string" ? [pull] : [];
  if (missing.length > 0 || typeof pull === "string") {
    return { kind: "refused", missing, problems };
  }
  return {
    kind: "entry",
    fields: {
      project: found.get("project") ?? "",
      question: found.get("question") ?? "",
      tried: found.get("tried") ?? "",
      needed: found.get("needed") ?? "",
      blocking_pull: pull,
    },
  };
}

/** The issue body the CLI writes: the same layout as the form's, so the App reads it the same. */
export function renderEntryForm(fields: HandoffEntryFields): string {
  const part = (field: keyof HandoffEntryFields, text: string) =>
    `### ${FIELD_HEADINGS[field][0]}\n\n${text.trim() === "" ? NO_RESPONSE : text.trim()}\n`;
  return [
    part("project", fields.project),
    part("question", fields.question),
    part("tried", fields.tried),
    part("needed", fields.needed),
    part("blocking_pull", fields.blocking_pull === null ? "" : `#${fields.blocking_pull}`),
  ].join("\n");
}
