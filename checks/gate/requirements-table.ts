import type { BaseConfigFact, Requirement } from "../../schemas/gate.js";
import { tableCell as cell, fenced } from "../markdown.js";

const STATUS_ICON: Record<Requirement["status"], string> = {
  pass: "✅",
  fail: "❌",
  waiting: "⏳",
  blocked: "⛔",
  capped: "🧢",
  stalled: "🔁",
};

/**
 * The requirements as a Markdown table, one row each, for the pull request and merge group
 * summaries. Under a maintainer's override (`setAside`) a requirement that did not pass is shown
 * as set aside, not as still waiting or failing under an accepted headline.
 */
export function requirementsTable(
  requirements: readonly Requirement[],
  options: { setAside?: boolean } = {},
): string[] {
  if (requirements.length === 0) return [];
  const status = (r: Requirement) =>
    options.setAside && r.status !== "pass"
      ? `↪️ set aside (was ${r.status})`
      : `${STATUS_ICON[r.status]} ${r.status}`;
  return [
    "| requirement | status | why |",
    "| --- | --- | --- |",
    ...requirements.map((r) => `| ${r.name} | ${status(r)} | ${cell(r.reason)} |`),
    "",
  ];
}

/**
 * The base config's problems, for the pull request and merge group summaries: the parser's
 * message, once (the table and the title only point here); nothing for a valid config.
 */
export function configProblems(config: BaseConfigFact): string[] {
  if (config.status !== "invalid") return [];
  return [`### Problems in ${config.path} at the base commit`, "", fenced(config.message), ""];
}
