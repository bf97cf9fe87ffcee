/**
 * What of a Markdown text GitHub would render as Markdown: the text with every fenced block and
 * every inline code span taken out (CommonMark's rules: a fence closes on a line of the same
 * character at least as long, and a backtick fence's info string holds no backtick, else the
 * line is text; a code span closes on a backtick run of exactly its length; outside code a
 * backslash escapes punctuation, so an escaped backtick opens nothing). Where it errs, it keeps
 * text (a code span across lines counts as text). A test asserts that nothing an author wrote
 * survives in what is left.
 */
export function outsideCode(markdown: string): string {
  const kept: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    const run = marker?.[1];
    const rest = marker?.[2] ?? "";
    if (fence) {
      if (run && run[0] === fence.char && run.length >= fence.length && rest.trim() === "") {
        fence = null;
      }
      continue;
    }
    if (run && !(run[0] === "`" && rest.includes("`"))) {
      fence = { char: run[0] ?? "`", length: run.length };
      continue;
    }
    kept.push(withoutCodeSpans(line));
  }
  return kept.join("\n");
}

/** CommonMark's escapable characters: ASCII punctuation. */
const ESCAPABLE = /[!-/:-@[-`{-~]/;

function withoutCodeSpans(line: string): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    const next = line[i + 1];
    if (line[i] === "\\" && next !== undefined && ESCAPABLE.test(next)) {
      // An escaped character is literal: an escaped backtick opens no code span.
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (line[i] !== "`") {
      out += line[i];
      i++;
      continue;
    }
    let run = 0;
    while (line[i + run] === "`") run++;
    const opener = "`".repeat(run);
    // The closer is the next run of exactly the same length.
    let j = i + run;
    let close = -1;
    while (j < line.length) {
      if (line[j] !== "`") {
        j++;
        continue;
      }
      let other = 0;
      while (line[j + other] === "`") other++;
      if (other === run) {
        close = j;
        break;
      }
      j += other;
    }
    if (close === -1) {
      out += opener;
      i += run;
    } else {
      out += "⟨code⟩";
      i = close + run;
    }
  }
  return out;
}

/** How many cells a table row has: its parts between pipes that are not escaped. */
export function tableCellCount(row: string): number {
  return row.replace(/\\\|/g, "").split("|").length;
}
