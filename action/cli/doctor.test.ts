/**
 * `agate-gate doctor` from the sources, in a child process, for what reaches the terminal
 * (test/e2e/doctor.test.ts runs the bundle against the simulator for its findings).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { closedPort } from "../../test/support/closed-port.js";

const run = promisify(execFile);
const TSX = fileURLToPath(import.meta.resolve("tsx"));
const CLI = fileURLToPath(new URL("./bin.ts", import.meta.url));

describe("agate-gate doctor", () => {
  it("a GitHub it cannot reach: its own one line, saying so, and nothing from Octokit", async () => {
    const port = await closedPort();
    const result = await run(
      process.execPath,
      ["--import", TSX, CLI, "doctor", "--repo", "a/b", "--api-url", `http://127.0.0.1:${port}`],
      { env: { PATH: process.env.PATH ?? "", GITHUB_TOKEN: "t" } },
    ).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    // Not "GET /repos/a/b - 500 with id UNKNOWN in 3ms", then "cannot read a/b: 500 connect …".
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `agate: doctor: cannot reach 127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}; check --api-url (or GITHUB_API_URL) and the network\n`,
    });
  });
});
