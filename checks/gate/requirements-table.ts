import type { Requirement } from "../../schemas/gate.js";
import { tableCell as cell } from "../markdown.js";

const STATUS_ICON: Record<Requirement["status"], string> = {
  pass: "✅",
  fail: "❌",
  waiting: "⏳",
  blocked: "⛔",
  capped: "🧢",
  stalled: "🔁",
};

/** The requirements as a Markdown table, one row each, for the pull request and merge group summaries. */
export function requirementsTable(requirements: readonly Requirement[]): string[] {
  if (requirements.length === 0) return [];
  return [
    "| requirement | status | why |",
    "| --- | --- | --- |",
    ...requirements.map(
      (r) => `| ${r.name} | ${STATUS_ICON[r.status]} ${r.status} | ${cell(r.reason)} |`,
    ),
    "",
  ];
}
