/**
 * What a shell command does, told from its text alone: enough to sort reads from writes and to
 * see a revert, never a full shell parser. Unknown commands are `command`: new information is
 * then judged by their output, which is always safe.
 */
export interface ShellFacts {
  /** The program of the first meaningful segment (`python`, `grep`), after `cd`, env and sudo. */
  name: string;
  kind: "read" | "write" | "command" | "search";
  /** The file read or written, when one is named. */
  path: string | null;
  /** Paths put back to the base commit; `*` for the whole tree. */
  revert: string[] | null;
}

const READERS = new Set(["cat", "nl", "head", "tail", "less", "more", "view", "bat", "wc"]);
const SEARCHERS = new Set(["grep", "egrep", "rg", "ag", "find", "ls", "tree", "fd", "locate"]);
const WRAPPERS = new Set(["sudo", "env", "time", "nice", "command", "exec", "nohup"]);

/** Splits on `&&`, `||`, `;`, `|` and newlines outside quotes; heredoc bodies are dropped. */
export function shellSegments(command: string): string[] {
  const body = command.replace(/<<-?\s*(['"]?)(\w+)\1[^\n]*\n[\s\S]*?\n\s*\2\s*(?=\n|$)/g, (m) =>
    m.slice(0, m.indexOf("\n")),
  );
  const segments: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') {
        current += c + (body[i + 1] ?? "");
        i++;
        continue;
      }
      current += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    const two = body.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      segments.push(current);
      current = "";
      i++;
      continue;
    }
    if (c === ";" || c === "\n" || (c === "|" && body[i + 1] !== "&")) {
      segments.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  segments.push(current);
  return segments.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Words of one segment, quotes and redirections removed (good enough for names and paths). */
export function shellWords(segment: string): string[] {
  const words: string[] = [];
  let skipNext = false;
  for (const match of segment.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g)) {
    const bare = match[3];
    if (skipNext) {
      skipNext = false;
      continue;
    }
    // 2>/dev/null, >out.txt, 2>&1, < in: a redirection, not an operand.
    if (bare !== undefined && /^(\d*|&)?(>>?|<)/.test(bare)) {
      skipNext = /^(\d*|&)?(>>?|<)&?$/.test(bare);
      continue;
    }
    words.push(match[1] ?? match[2] ?? bare ?? "");
  }
  return words;
}

function programOf(words: string[]): { name: string; args: string[] } {
  let i = 0;
  while (i < words.length) {
    const word = words[i] as string;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || WRAPPERS.has(word)) i++;
    else if (word === "timeout") i += 2;
    else break;
  }
  const program = words[i] ?? "";
  return { name: program.split("/").pop() ?? program, args: words.slice(i + 1) };
}

const lastOperand = (args: string[]) =>
  [...args].reverse().find((a) => !a.startsWith("-") && !/^\d+(,\d+)?p?$/.test(a)) ?? null;

function redirectTarget(segment: string): string | null {
  const match = /(?:^|[^0-9&>])>>?\s*([^\s&|;<>]+)/.exec(segment);
  const target = match?.[1];
  return target && target !== "/dev/null" ? target : null;
}

function revertOf(name: string, args: string[]): string[] | null {
  if (name !== "git") return null;
  const [sub, ...rest] = args;
  const operands = rest.filter((a) => !a.startsWith("-"));
  if (sub === "checkout" && !rest.some((a) => a === "-b" || a === "-B")) {
    const paths = rest.includes("--") ? rest.slice(rest.indexOf("--") + 1) : operands;
    if (paths.length === 0) return null;
    return paths.includes(".") ? ["*"] : paths;
  }
  if (sub === "restore") return operands.length === 0 || operands.includes(".") ? ["*"] : operands;
  if (sub === "stash" && (rest.length === 0 || rest[0] === "push" || rest[0] === "-u"))
    return ["*"];
  if (sub === "reset" && rest.includes("--hard")) return ["*"];
  return null;
}

/** Facts about a whole command line: a write or revert anywhere makes it one. */
export function shellFacts(command: string): ShellFacts {
  const segments = shellSegments(command);
  let first: { name: string; args: string[] } | null = null;
  let kind: ShellFacts["kind"] = "command";
  let path: string | null = null;
  let revert: string[] | null = null;
  for (const segment of segments) {
    const { name, args } = programOf(shellWords(segment));
    if (name === "cd" || name === "") continue;
    first ??= { name, args };
    const reverted = revertOf(name, args);
    if (reverted) {
      revert = [...(revert ?? []), ...reverted];
      kind = "write";
      continue;
    }
    const target = redirectTarget(segment);
    const inPlace = name === "sed" && args.some((a) => /^-i/.test(a) || a === "--in-place");
    if (inPlace || target || name === "tee" || name === "patch" || name === "touch") {
      kind = "write";
      path = target ?? lastOperand(args);
      continue;
    }
    if (
      name === "rm" ||
      name === "mv" ||
      name === "cp" ||
      (name === "git" && args[0] === "apply")
    ) {
      kind = "write";
      path = lastOperand(args);
      continue;
    }
    if (kind !== "write" && segments.length > 0 && first.name === name) {
      const printsOnly = name === "sed" ? args.includes("-n") : READERS.has(name);
      if (printsOnly) {
        kind = "read";
        path = lastOperand(args);
      } else if (SEARCHERS.has(name) || (name === "git" && args[0] === "grep")) kind = "search";
    }
  }
  return { name: first?.name ?? "", kind, path, revert };
}
