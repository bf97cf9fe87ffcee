/**
 * Every comment the App writes on a pull request, as text. Whatever someone else wrote (a title
 * built from path names, a maintainer's reason, a login) goes in a code span: on GitHub nothing
 * in one is a mention, a link, an image or HTML.
 */
import { codeSpan, shortSha } from "../markdown.js";

/** A person changed one of agate's state labels; agate put it back. */
export function handEditedLabelComment(
  label: string | null,
  removed: readonly string[],
  title: string,
): string {
  const what = label
    ? `\`${label}\` is back`
    : `${removed.map((l) => codeSpan(l)).join(", ")} ${removed.length === 1 ? "is" : "are"} gone (a pull request waiting for evidence carries no state label)`;
  return [
    `agate's labels show the state of its gate, so ${what}: ${codeSpan(title)}.`,
    "",
    "A label cannot change the state. To change it: push a commit that fixes what the `agate` check lists, " +
      "let CI publish a new command record, or, for protected paths, have a maintainer approve the head commit. " +
      "The `Re-run gate` button on the check recomputes the decision.",
  ].join("\n");
}

/** Someone put agate's state labels on a pull request agate does not gate; agate removed them. */
export function strayLabelComment(labels: readonly string[], title: string): string {
  return [
    `agate removed ${labels.map((l) => `\`${l}\``).join(", ")}: agate's labels show the state of its gate, and it does not gate this pull request (${codeSpan(title)}).`,
    "",
    "A label cannot change what agate decides; the `agate` check is the gate.",
  ].join("\n");
}

/** An `/agate accept` that was not taken: the command was malformed, or not this person's to give. */
export function overrideRefusedComment(sha: string | null, problem: string): string {
  return sha === null
    ? `agate did not accept anything: ${problem}.`
    : `agate did not accept ${codeSpan(sha, 64)}: ${problem}.`;
}

/** An `/agate accept` that was taken, and what the check says now. */
export function overrideAcceptedComment(input: {
  headSha: string;
  by: string;
  reason: string;
  title: string | null;
}): string {
  return [
    `agate accepted \`${shortSha(input.headSha)}\` on the word of ${codeSpan(input.by, 60)}: ${codeSpan(input.reason)}.`,
    "",
    "This is stored with the acceptance record as a maintainer override. It holds for this exact commit only: any push voids it.",
    ...(input.title ? ["", `The \`agate\` check now says: ${codeSpan(input.title)}.`] : []),
  ].join("\n");
}
