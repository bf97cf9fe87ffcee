import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort } from "../test/support/closed-port.js";
import { compareWithDefaultBranch } from "./github.js";

const run = promisify(execFile);
const TSX = fileURLToPath(import.meta.resolve("tsx"));
const GITHUB_TS = fileURLToPath(new URL("./github.ts", import.meta.url));

/** A GitHub that knows no repository: every request is answered 404. */
let github: Server;
let apiUrl = "";
beforeAll(async () => {
  github = createServer((_req, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ message: "Not Found" }));
  });
  await new Promise<void>((done) => github.listen(0, "127.0.0.1", done));
  apiUrl = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((done) => github.close(done)));

describe("the Action's and the CLI's GitHub reads", () => {
  it("leave the terminal and the job log to agate: Octokit prints nothing of its own for a failed request", async () => {
    // A process of its own: Octokit's default log is console.error, bound when it loads.
    const script = `
      const { ActionGitHub, readRepositoryFile } = await import(${JSON.stringify(GITHUB_TS)});
      const where = { token: "t", baseUrl: ${JSON.stringify(apiUrl)}, owner: "o", repo: "r" };
      const file = await readRepositoryFile({ ...where, path: "a.yml", sha: "${"a".repeat(40)}" });
      const atCommit = await new ActionGitHub("t", "o", "r", where.baseUrl).readFileAtCommit("${"a".repeat(40)}", "x");
      console.log(JSON.stringify({ status: file.status, atCommit }));
    `;
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", TSX, "--input-type=module", "-e", script],
      { env: { PATH: process.env.PATH ?? "" } },
    );
    expect(JSON.parse(stdout)).toEqual({ status: 404, atCommit: null });
    // Not "GET /repos/o/r/contents/a.yml?ref=… - 404 with id UNKNOWN in 4ms", twice.
    expect(stderr).toBe("");
  });

  it("a request that got no answer has no status: not Octokit's 500", async () => {
    const port = await closedPort();
    const failure = await compareWithDefaultBranch({
      token: undefined,
      baseUrl: `http://127.0.0.1:${port}`,
      owner: "o",
      repo: "r",
      sha: "a".repeat(40),
    });
    expect(failure).toEqual({
      ok: false,
      status: null,
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });
});
