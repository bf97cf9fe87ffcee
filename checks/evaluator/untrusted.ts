/**
 * How text that an author controls is written into the evaluator's prompt: names as JSON
 * strings, free text with its control characters made visible. Nothing an author wrote can
 * then start a line of its own, whichever characters a reader takes for line breaks.
 */

/**
 * Characters that break a line for some reader (vertical tab, form feed, the file, group and
 * record separators, NEL, the Unicode line and paragraph separators), other C0 and C1 controls,
 * DEL, and the invisible ones that change how text reads (zero-width characters, bidirectional
 * overrides and isolates, the soft hyphen, the byte order mark, interlinear annotations).
 * Tab and newline are not here: free text keeps them, names escape them through JSON.
 */
const HIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

const SHORT: Record<string, string> = { "\b": "\\b", "\f": "\\f", "\r": "\\r" };

function escapeOne(char: string): string {
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Free text (a body, a patch, an output tail) with every hidden character written as an escape. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, escapeOne);
}

/**
 * A name (file, folder, command, path) as a JSON string: quotes, backslashes, newlines and every
 * other control or invisible character escaped, so it reads as one value on one line.
 */
export function quoteName(name: string): string {
  return JSON.stringify(name).replace(HIDDEN, escapeOne);
}

/** A JSON value on one line, with every string in it escaped like a name. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(HIDDEN, escapeOne);
}
