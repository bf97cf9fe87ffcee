import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runAttempt } from "./environment.js";
import { loadArtifactClient, RecordUploadError, uploadRecord } from "./upload.js";

// The upload itself, and a 409 or 401 from the service, run end to end against the simulator's
// artifact service in test/e2e/action-artifact.test.ts. Here: what happens before any request.

let temp: string | undefined;
afterEach(() => {
  vi.unstubAllEnvs();
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = undefined;
});

describe("uploadRecord", () => {
  it("off a runner it uploads nothing and names the artifact it would have been", async () => {
    temp = mkdtempSync(join(tmpdir(), "agate-upload-"));
    const env = { GITHUB_RUN_ATTEMPT: "3" };
    const client = await loadArtifactClient(env);
    expect(client).toBeNull();
    expect(await uploadRecord("{}", { env, tempDir: temp, client })).toEqual({
      kind: "not-on-runner",
      name: "agate-command-record-attempt-3",
    });
    expect(readdirSync(temp)).toEqual([]);
  });

  it("the attempt comes from GITHUB_RUN_ATTEMPT; anything else is attempt 1", () => {
    expect(runAttempt({ GITHUB_RUN_ATTEMPT: "2" })).toBe(2);
    expect(runAttempt({})).toBe(1);
    expect(runAttempt({ GITHUB_RUN_ATTEMPT: "two" })).toBe(1);
  });

  it("a refusal of the client says what to fix and is not called tampering; the upload dir is gone", async () => {
    temp = mkdtempSync(join(tmpdir(), "agate-upload-"));
    const env = {
      ACTIONS_RUNTIME_TOKEN: "x.e30.x",
      ACTIONS_RESULTS_URL: "http://127.0.0.1:9/",
      GITHUB_SERVER_URL: "https://github.example.com",
    };
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const client = await loadArtifactClient(env);
    expect(client).not.toBeNull();
    const error = await uploadRecord("{}", { env, tempDir: temp, client }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordUploadError);
    expect((error as RecordUploadError).tampering).toBe(false);
    expect((error as Error).message).toMatch(
      /^agate: could not upload the command record as the artifact agate-command-record-attempt-1: .*The App cannot see this run's evidence without it: artifacts of this kind are not available on GitHub Enterprise Server\.$/,
    );
    expect(readdirSync(temp)).toEqual([]);
  });
});
