/**
 * What of a Markdown text GitHub would render as Markdown: the text with every fenced block and
 * every inline code span taken out (CommonMark's rules: a fence closes on a line of the same
 * character at least as long; a code span closes on a backtick run of exactly its length).
 * A test asserts that nothing an author wrote survives in what is left.
 */
export function outsideCode(markdown: string): string {
  const kept: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (marker?.[1] && marker[1][0] === fence.char && marker[1].length >= fence.length) {
        if (line.trim() === marker[1]) fence = null;
      }
      continue;
    }
    if (marker?.[1]) {
      fence = { char: marker[1][0] ?? "`", length: marker[1].length };
      continue;
    }
    kept.push(withoutCodeSpans(line));
  }
  return kept.join("\n");
}

function withoutCodeSpans(line: string): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
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

/** The cells of a table row, split on pipes that are not escaped. */
export function tableCells(row: string): number {
  return row.replace(/\\\|/g, "").split("|").length;
}
