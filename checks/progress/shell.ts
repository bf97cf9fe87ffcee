/**
 * What a shell command does, told from its text alone: enough to sort reads from writes and to
 * see a restore, never a full shell parser. Unknown commands are `command`: new information is
 * then judged by their output, which is always safe.
 */
export interface ShellFacts {
  /** The program of the first meaningful segment (`python`, `grep`), after `cd`, env and sudo. */
  name: string;
  kind: "read" | "write" | "command" | "search";
  /** The file read or written, when one is named (the first, when several are written). */
  path: string | null;
  /** Every file the command writes, as far as its text says. */
  writes: string[];
  /** Paths put back to the base commit (`git checkout -- f`, `git stash`); `*` for the whole tree. */
  revert: string[] | null;
  /** Files put back from a copy (`cp f.orig f`, `mv backup/f f`): the copy and the file. */
  restores: { from: string; to: string }[];
  /** Copies made (`cp f f.bak`): a later copy back is a restore. */
  copies: { from: string; to: string }[];
  /** `git stash pop` / `git stash apply`: the stashed work comes back. */
  unstash: boolean;
}

const READERS = new Set(["cat", "nl", "head", "tail", "less", "more", "view", "bat", "wc"]);
const SEARCHERS = new Set(["grep", "egrep", "rg", "ag", "find", "ls", "tree", "fd", "locate"]);
const WRAPPERS = new Set(["sudo", "env", "time", "nice", "command", "exec", "nohup"]);
/** Names a backup copy takes: `f.orig` (patch's own), `f.bak`, `f~`, `f.backup`, `f.old`. */
const BACKUP_SUFFIX = /(?:\.(?:orig|original|bak|backup|old|save|saved|prev)|~)$/;

/** Drops heredoc bodies: their text is data, and its quotes would confuse the splitting. */
const withoutHeredocs = (command: string) =>
  command.replace(/<<-?\s*(['"]?)(\w+)\1[^\n]*\n[\s\S]*?\n\s*\2\s*(?=\n|$)/g, (m) =>
    m.slice(0, m.indexOf("\n")),
  );

/**
 * Splits on `&&`, `||`, `;`, `|` and newlines outside quotes; heredoc bodies and `#` comments
 * (a `#` that starts a word) are dropped.
 */
export function shellSegments(command: string): string[] {
  const body = withoutHeredocs(command);
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
    if (c === "\\" && body[i + 1] === "\n") {
      current += " ";
      i++;
      continue;
    }
    if (c === "\\" && i + 1 < body.length) {
      current += c + (body[i + 1] as string);
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    if (c === "#" && (current === "" || /\s$/.test(current))) {
      const end = body.indexOf("\n", i);
      i = end < 0 ? body.length : end - 1;
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

interface Words {
  words: string[];
  /** Files written by `>` or `>>` (never /dev/null or a descriptor). */
  outputs: string[];
}

/** Words of one segment, quotes removed, redirections taken apart (quoted `>` is text). */
export function shellWords(segment: string): Words {
  const words: string[] = [];
  const outputs: string[] = [];
  let pending: "out" | "in" | null = null;
  for (const match of segment.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"|((?:\\.|[^\s'"])+)/g)) {
    const bare = match[3];
    const word = match[1] ?? match[2] ?? bare ?? "";
    if (pending) {
      if (pending === "out" && word !== "/dev/null") outputs.push(word);
      pending = null;
      continue;
    }
    // 2>/dev/null, >out.txt, 2>&1, < in: a redirection, not an operand.
    const redirect = bare === undefined ? null : /^(\d*|&)?(>>?|<)(&?)(.*)$/.exec(bare);
    if (redirect) {
      const [, , op, toFd, rest] = redirect;
      if (toFd || /^<<|^<</.test(bare ?? "")) continue;
      if (rest) {
        if (op !== "<" && rest !== "/dev/null") outputs.push(rest);
      } else pending = op === "<" ? "in" : "out";
      continue;
    }
    words.push(bare !== undefined ? bare.replace(/\\(.)/g, "$1") : word);
  }
  return { words, outputs };
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

const operands = (args: string[]) => args.filter((a) => !a.startsWith("-"));

const lastOperand = (args: string[]) =>
  [...args].reverse().find((a) => !a.startsWith("-") && !/^\d+(,\d+)?p?$/.test(a)) ?? null;

/** sed's files: every operand after the script (with -e/-f, every operand). */
function sedFiles(args: string[]): string[] {
  const files: string[] = [];
  let script = args.some((a) => a === "-e" || a === "-f" || a.startsWith("--expression"));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-e" || arg === "-f") {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    if (!script) script = true;
    else files.push(arg);
  }
  return files;
}

const looksLikeRef = (word: string) =>
  /^(HEAD|FETCH_HEAD|ORIG_HEAD|@)([~^]\d*)*$|^[0-9a-f]{7,40}$|^(origin|upstream)\/|^(main|master|develop)$/.test(
    word,
  );

function revertOf(name: string, args: string[]): string[] | null {
  if (name !== "git") return null;
  const [sub, ...rest] = args;
  const plain = operands(rest);
  if (sub === "checkout" && !rest.some((a) => a === "-b" || a === "-B")) {
    const paths = rest.includes("--") ? rest.slice(rest.indexOf("--") + 1) : plain;
    // `git checkout HEAD -- f` / `git checkout HEAD~1 f`: the ref is not a path.
    const files =
      !rest.includes("--") && paths.length > 1 && looksLikeRef(paths[0] as string)
        ? paths.slice(1)
        : paths;
    if (files.length === 0) return null;
    return files.includes(".") ? ["*"] : files;
  }
  if (sub === "restore") {
    if (rest.includes("--staged") && !rest.includes("--worktree")) return null;
    const files = plain.filter((a) => a !== "--");
    return files.length === 0 || files.includes(".") ? ["*"] : files;
  }
  if (
    sub === "stash" &&
    (rest.length === 0 || ["push", "save", "-u", "--include-untracked"].includes(rest[0] as string))
  )
    return ["*"];
  if (sub === "reset" && rest.includes("--hard")) return ["*"];
  return null;
}

const baseName = (path: string) => path.split("/").pop() ?? path;

/** `cp f.orig f`, `cp backup/f f`, `mv /tmp/f.bak f`: the copy looks like a backup of the file. */
function looksLikeBackupOf(from: string, to: string): boolean {
  const source = baseName(from);
  const target = baseName(to);
  if (source === target) return from !== to && /backup|orig|bak|saved?|pristine/i.test(from);
  return BACKUP_SUFFIX.test(source) && source.replace(BACKUP_SUFFIX, "") === target;
}

/** Facts about a whole command line: a write or restore anywhere makes it one. */
export function shellFacts(command: string): ShellFacts {
  const segments = shellSegments(command);
  const facts: ShellFacts = {
    name: "",
    kind: "command",
    path: null,
    writes: [],
    revert: null,
    restores: [],
    copies: [],
    unstash: false,
  };
  let first: string | null = null;
  const write = (paths: string[]) => {
    facts.kind = "write";
    for (const path of paths) if (!facts.writes.includes(path)) facts.writes.push(path);
    facts.path ??= paths[0] ?? null;
  };
  for (const segment of segments) {
    const { words, outputs } = shellWords(segment);
    const { name, args } = programOf(words);
    if (name === "cd" || name === "") continue;
    first ??= name;
    const reverted = revertOf(name, args);
    if (reverted) {
      facts.revert = [...(facts.revert ?? []), ...reverted];
      facts.kind = "write";
      continue;
    }
    if (name === "git" && args[0] === "stash" && (args[1] === "pop" || args[1] === "apply")) {
      facts.unstash = true;
      facts.kind = "write";
      continue;
    }
    if ((name === "cp" || name === "mv") && operands(args).length === 2) {
      const [from, to] = operands(args) as [string, string];
      if (looksLikeBackupOf(from, to)) facts.restores.push({ from, to });
      else if (name === "cp") facts.copies.push({ from, to });
      write([to]);
      continue;
    }
    const inPlace = name === "sed" && args.some((a) => /^-i/.test(a) || a === "--in-place");
    if (outputs.length > 0 || inPlace || name === "tee" || name === "patch" || name === "touch") {
      const files = [
        ...outputs,
        ...(inPlace ? sedFiles(args) : []),
        ...(name === "tee" || name === "touch" ? operands(args) : []),
      ];
      write(files.length > 0 ? files : [lastOperand(args) ?? "?"]);
      continue;
    }
    if (
      name === "rm" ||
      name === "mv" ||
      name === "cp" ||
      (name === "git" && args[0] === "apply")
    ) {
      write(operands(name === "git" ? args.slice(1) : args));
      continue;
    }
    if (facts.kind !== "write" && first === name) {
      const printsOnly = name === "sed" ? args.includes("-n") : READERS.has(name);
      if (printsOnly) {
        facts.kind = "read";
        facts.path = (name === "sed" ? sedFiles(args).at(-1) : lastOperand(args)) ?? null;
      } else if (SEARCHERS.has(name) || (name === "git" && args[0] === "grep"))
        facts.kind = "search";
    }
  }
  facts.name = first ?? "";
  return facts;
}
