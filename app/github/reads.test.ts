import { describe, expect, it } from "vitest";
import { simulatorProbot, useSimulator } from "../../test/support/simulator-app.js";
import { GitHubAdapter } from "./adapter.js";
import { ImmutableReads } from "./reads.js";

/** The per-process reads against the simulator: what is read by SHA is asked of GitHub once. */
const simulator = useSimulator();

describe("ImmutableReads", () => {
  it("a commit's files, by its SHA, are read once per repository and commit", async () => {
    const sim = simulator();
    await sim.createRepository({ repo: "r1", files: { "a.txt": "a\n" } });
    const sha = await sim.pushCommit({ repo: "r1", branch: "main", files: { "b.txt": "b\n" } });
    const other = await sim.pushCommit({ repo: "r1", branch: "main", files: { "c.txt": "c\n" } });
    const octokit = await simulatorProbot(sim).auth(sim.installationId);
    const github = new GitHubAdapter(octokit as never, `${sim.owner}/r1`, sim.appSlug);
    const reads = new ImmutableReads();
    sim.clearCalls();
    expect(await reads.commitFiles(github, sha)).toEqual({ files: ["b.txt"], cut: false });
    expect(await reads.commitFiles(github, sha)).toEqual({ files: ["b.txt"], cut: false });
    expect(sim.calls["repos/get-commit"]).toBe(1);
    expect(await reads.commitFiles(github, other)).toEqual({ files: ["c.txt"], cut: false });
    expect(sim.calls["repos/get-commit"]).toBe(2);
  });
});

describe("commit files", () => {
  /** A commit of `count` new files in a repository of its own, and an adapter to read it. */
  async function commitOf(repo: string, count: number) {
    const sim = simulator();
    await sim.createRepository({ repo, files: { "a.txt": "a\n" } });
    const files = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`f/${String(i).padStart(4, "0")}.txt`, `${i}\n`]),
    );
    const sha = await sim.pushCommit({ repo, branch: "main", files });
    const octokit = await simulatorProbot(sim).auth(sim.installationId);
    const github = new GitHubAdapter(octokit as never, `${sim.owner}/${repo}`, sim.appSlug);
    sim.clearCalls();
    return { sim, sha, github, names: Object.keys(files) };
  }

  it("a commit of 250 files is read whole, page by page (one page would leave its last files out)", async () => {
    const { sim, sha, github, names } = await commitOf("r2", 250);
    const listed = await new ImmutableReads().commitFiles(github, sha);
    expect(listed.files.sort()).toEqual(names.sort());
    expect(listed.cut).toBe(false);
    expect(sim.calls["repos/get-commit"]).toBe(3);
  });

  it("a commit of more than 3,000 files is listed as GitHub cuts it, and says so", async () => {
    const { sim, sha, github } = await commitOf("r3", 3_001);
    const listed = await new ImmutableReads().commitFiles(github, sha);
    expect(listed.files).toHaveLength(3_000);
    expect(listed.cut).toBe(true);
    expect(sim.calls["repos/get-commit"]).toBe(30);
  }, 60_000);
});
