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
