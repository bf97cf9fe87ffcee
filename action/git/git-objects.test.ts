import { describe, expect, it } from "vitest";
import { makeRepo } from "../../test/support/git-repo.js";
import { readObjects } from "./git.js";
import { HEAD_COMMIT, testedCommit } from "./snapshot.js";

describe("readObjects: several objects from one git process", () => {
  it("reads each object as stored, a missing one as null, in the order asked", () => {
    const repo = makeRepo("agate-objects-");
    try {
      const bytes = "line one\r\nno newline at the end \u00e9\u0000";
      const sha = repo.commit({ "a.txt": bytes, "dir/b.txt": "b\n" });
      const [head, blob, missing, tree, nothing] = readObjects(repo.dir, [
        HEAD_COMMIT,
        `${sha}:a.txt`,
        `${sha}:not-there.yml`,
        `${sha}:dir`,
        "0".repeat(40),
      ]);
      expect(head).toMatchObject({ sha, type: "commit" });
      expect(blob?.type).toBe("blob");
      expect(blob?.content.toString("utf8")).toBe(bytes);
      expect(missing).toBeNull();
      expect(tree?.type).toBe("tree");
      expect(nothing).toBeNull();
      expect(testedCommit(repo.dir, head ?? undefined)).toEqual(testedCommit(repo.dir));
      expect(() => readObjects(repo.dir, ["HEAD\nHEAD"])).toThrow(/line break/);
    } finally {
      repo.remove();
    }
  });
});
