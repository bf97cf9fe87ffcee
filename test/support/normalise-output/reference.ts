import { NORMALISATION_RULES } from "../../../checks/normalise-output.js";

/**
 * The line-by-line normaliser as it was before the fast path (stored normalised digests were made
 * with it), kept verbatim as the reference: normaliseOutput must give exactly its result.
 */
const [ANSI_RULE, ...TEXT_RULES] = NORMALISATION_RULES;
const COMBINED = new RegExp(TEXT_RULES.map((rule) => `(?:${rule.pattern.source})`).join("|"), "g");
const WHOLE = TEXT_RULES.map((rule) => ({
  rule,
  whole: new RegExp(`^(?:${rule.pattern.source})$`),
  single: new RegExp(rule.pattern.source),
}));
function replaceMatch(match: string): string {
  const found = WHOLE.find(({ whole }) => whole.test(match));
  return found ? match.replace(found.single, found.rule.replacement) : match;
}
export function referenceLine(line: string): string {
  const body = line.endsWith("\r") ? line.slice(0, -1) : line;
  const lastReturn = body.lastIndexOf("\r");
  let text = lastReturn >= 0 ? body.slice(lastReturn + 1) : body;
  if (ANSI_RULE && text.includes("\u001b"))
    text = text.replace(ANSI_RULE.pattern, ANSI_RULE.replacement);
  text = text.replace(COMBINED, replaceMatch);
  return text.replace(/[ \t]+$/, "");
}
export const referenceOutput = (text: string): string =>
  text.split("\n").map(referenceLine).join("\n");
