import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RECORD_FILE_NAME, recordArtifactName } from "../schemas/command-record.js";
import { TRACE_REPORT_FILE_NAME, traceReportArtifactName } from "../schemas/trace.js";
import { runAttempt } from "./environment.js";

export type RecordUpload =
  | { kind: "uploaded"; name: string; id: number; size: number }
  /** Not on a runner (no artifact client: see loadArtifactClient): nothing was uploaded. */
  | { kind: "not-on-runner"; name: string };

/** The upload failed; `tampering` when an artifact of the record's name was already there. */
export class RecordUploadError extends Error {
  override readonly name = "RecordUploadError";
  constructor(
    message: string,
    readonly tampering: boolean,
  ) {
    super(message);
  }
}

export type ArtifactModule = typeof import("@actions/artifact");

/**
 * The artifact client, loaded now: call it before the first command starts. Its code sits in files
 * the job's user can write (the action's own directory on the runner): loaded after the commands,
 * a file a command rewrote would run inside agate's process and could upload a forged, passing
 * record as the one record, then exit 0. Loaded before, what runs is what was checked out; and
 * uploadRecord takes the loaded client, so nothing is imported after the commands.
 *
 * `@actions/artifact` (and its 200-odd dependencies) is loaded only on a runner (null otherwise:
 * no ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL), so `agate run` never pays for it.
 */
export async function loadArtifactClient(env: NodeJS.ProcessEnv): Promise<ArtifactModule | null> {
  if (!env.ACTIONS_RUNTIME_TOKEN || !env.ACTIONS_RESULTS_URL) return null;
  return import("@actions/artifact");
}

/**
 * Uploads the trace reports as their own artifact: the record artifact must hold exactly one
 * file (the App refuses any other), so the reports never go there. Nothing about the gate rests
 * on it; a failure is returned, never thrown.
 */
export async function uploadTraceReport(
  json: string,
  options: { env: NodeJS.ProcessEnv; tempDir: string; client: ArtifactModule | null },
): Promise<string> {
  const name = traceReportArtifactName(runAttempt(options.env));
  if (!options.client) return `not uploaded (not on a GitHub Actions runner)`;
  mkdirSync(options.tempDir, { recursive: true });
  const dir = mkdtempSync(join(options.tempDir, "trace-"));
  const file = join(dir, TRACE_REPORT_FILE_NAME);
  writeFileSync(file, json);
  try {
    const { id } = await new options.client.DefaultArtifactClient().uploadArtifact(
      name,
      [file],
      dir,
    );
    return `the artifact \`${name}\` (id ${id ?? "unknown"})`;
  } catch (error) {
    return `not uploaded: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Uploads the record as the run attempt's one record artifact: `agate-command-record-attempt-<n>`
 * holding one file, `command-record.json`, through the client loadArtifactClient loaded (none: not
 * on a runner, nothing uploaded). Call it only after every process of every command's group is
 * gone. The file is written here, from the record in memory, into a fresh directory, just before
 * the upload: nothing the commands left on disk is uploaded.
 *
 * The runtime token that allows the upload is in agate's own process environment, which the
 * commands can read (/proc/<pid>/environ): they can upload an artifact of this name first. Names
 * are unique within a run attempt, so then this upload is refused with 409, and that is reported
 * as tampering: the step fails, and the App, which requires exactly one record artifact per
 * attempt and the step's conclusion to agree with it, refuses the record.
 */
export async function uploadRecord(
  json: string,
  options: { env: NodeJS.ProcessEnv; tempDir: string; client: ArtifactModule | null },
): Promise<RecordUpload> {
  const name = recordArtifactName(runAttempt(options.env));
  if (!options.client) return { kind: "not-on-runner", name };

  mkdirSync(options.tempDir, { recursive: true });
  const dir = mkdtempSync(join(options.tempDir, "upload-"));
  const file = join(dir, RECORD_FILE_NAME);
  writeFileSync(file, json);
  try {
    const { id, size } = await new options.client.DefaultArtifactClient().uploadArtifact(
      name,
      [file],
      dir,
    );
    if (id === undefined) {
      throw new RecordUploadError(
        `agate: the artifact service accepted ${name} but returned no artifact id; the App cannot find the record. Re-run the job.`,
        false,
      );
    }
    return { kind: "uploaded", name, id, size: size ?? 0 };
  } catch (error) {
    throw uploadError(name, error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function uploadError(name: string, error: unknown): RecordUploadError {
  if (error instanceof RecordUploadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const kind = error instanceof Error ? error.name : "";
  if (/\(409\)/.test(message) || /already exists/i.test(message)) {
    return new RecordUploadError(
      `agate: the job was tampered with: an artifact named ${name} already exists in this run attempt, uploaded by something else in the job before agate (the pull request's code can read the runner's token from /proc). The App will refuse the record of this attempt. Find what uploaded it in this job's steps; re-running the job starts a new attempt. (${message})`,
      true,
    );
  }
  const fix =
    kind === "GHESNotSupportedError"
      ? "artifacts of this kind are not available on GitHub Enterprise Server"
      : kind === "UsageError"
        ? "the artifact storage quota is used up: delete old artifacts or raise the quota, then re-run the job"
        : kind === "NetworkError"
          ? "the runner cannot reach GitHub's artifact service: allow it (self-hosted runners), then re-run the job"
          : "re-run the job; if it fails again, check GitHub's status and the runner's access to the artifact service";
  return new RecordUploadError(
    `agate: could not upload the command record as the artifact ${name}: ${message}. The App cannot see this run's evidence without it: ${fix}.`,
    false,
  );
}
