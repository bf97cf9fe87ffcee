import { describe, expect, it } from "vitest";
import { shellFacts, shellSegments } from "./shell.js";

describe("shellFacts", () => {
  it.each([
    ["cat src/a.py", { name: "cat", kind: "read", path: "src/a.py", revert: null }],
    ["cd /testbed && sed -n '10,20p' a.py", { name: "sed", kind: "read", path: "a.py" }],
    ["nl -ba x.py | sed -n '1,5p'", { name: "nl", kind: "read", path: "x.py" }],
    ["grep -rn foo src/ | head -5", { name: "grep", kind: "search" }],
    ["sed -i 's/a/b/' src/m.py", { name: "sed", kind: "write", path: "src/m.py" }],
    [
      "cat > fix.py <<'EOF'\nprint(1) > 2\nEOF\npython fix.py",
      { name: "cat", kind: "write", path: "fix.py" },
    ],
    ["python -m pytest -q 2>&1 | tail -5", { name: "python", kind: "command", path: null }],
    ["FOO=1 timeout 60 ./run.sh > /dev/null", { name: "run.sh", kind: "command" }],
    [
      "git checkout src/a.py src/b.py 2>/dev/null || true",
      { kind: "write", revert: ["src/a.py", "src/b.py"] },
    ],
    ["git checkout -- .", { revert: ["*"] }],
    ["git stash", { revert: ["*"] }],
    ["git checkout -b topic", { kind: "command", revert: null }],
    ["git diff", { name: "git", kind: "command", revert: null }],
    // Issue 29: a `>` inside a quoted sed script is text, not a redirection to `0:\n`.
    [
      "sed -i '2001,2008c\\    if x > 0:\\n        return 1' src/m.py",
      { name: "sed", kind: "write", path: "src/m.py", writes: ["src/m.py"] },
    ],
    [
      "sed -i '/def run(self) -> List\\[Node\\]:/a \\    raise RuntimeError(1)' src/d.py",
      { kind: "write", path: "src/d.py", writes: ["src/d.py"] },
    ],
    // Issue 29: a command that starts with a comment is not a program named `#`.
    ["# look at the parser first\ncat src/p.py", { name: "cat", kind: "read", path: "src/p.py" }],
    ["cat src/p.py  # the parser", { name: "cat", kind: "read", path: "src/p.py" }],
    ["rm a.py b.py c.py", { kind: "write", writes: ["a.py", "b.py", "c.py"] }],
    [
      "cp django/db/models/query.py.orig django/db/models/query.py",
      {
        kind: "write",
        restores: [{ from: "django/db/models/query.py.orig", to: "django/db/models/query.py" }],
      },
    ],
    [
      "mv /tmp/backup/views.py views.py",
      { restores: [{ from: "/tmp/backup/views.py", to: "views.py" }] },
    ],
    [
      "cp views.py views.py.bak",
      { copies: [{ from: "views.py", to: "views.py.bak" }], restores: [] },
    ],
    ["git checkout HEAD -- src/a.py", { revert: ["src/a.py"] }],
    ["git checkout HEAD~1 src/a.py", { revert: ["src/a.py"] }],
    ["git restore --staged src/a.py", { revert: null }],
    ["git stash pop", { kind: "write", unstash: true, revert: null }],
  ])("%s", (command, expected) => {
    expect(shellFacts(command)).toMatchObject(expected);
  });

  it("splits on operators outside quotes and drops heredoc bodies", () => {
    expect(shellSegments("echo 'a && b' && ls; cat <<EOF\nx; y\nEOF")).toEqual([
      "echo 'a && b'",
      "ls",
      "cat <<EOF",
    ]);
  });
});
