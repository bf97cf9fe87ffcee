/**
 * The evidence channel, App side: the newest run of the pinned evidence workflow for a head, its
 * job and step as GitHub reports them, the command record artifact it uploaded, and GitHub's word
 * on the commit it tested: read, never judged. The decision judges them (checks/gate/evidence.ts,
 * by the rules of checks/gate/provenance.ts), so what is believed is decided once, from facts
 * stored beside the decision.
 */
import { unzipSync } from "fflate";
import { localUses } from "../../checks/gate/reads.js";
import { codeSpan } from "../../checks/markdown.js";
import {
  type CommandRecord,
  commandRecordSchema,
  RECORD_FILE_NAME,
  recordArtifactName,
} from "../../schemas/command-record.js";
import type { Config } from "../../schemas/config.js";
import type {
  EvidenceJob,
  EvidenceRunFact,
  EvidenceSourceFact,
  TestedCommitFact,
} from "../../schemas/gate.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { remember, rememberRead } from "../kit/bounded-map.js";

/** A record is a few tails of 64 KiB; anything near these sizes is not one agate wrote. */
const MAX_ZIP_BYTES = 16 * 1024 * 1024;
const MAX_RECORD_BYTES = 32 * 1024 * 1024;
/** Local actions that use local actions: followed this deep, then the source is unreadable. */
const MAX_USES_DEPTH = 4;
const CACHE_LIMIT = 500;

/**
 * What never changes once read: a workflow and its local uses at a base commit, and the record
 * in an artifact (artifacts are immutable; a re-upload is a new artifact with a new id).
 */
export class EvidenceCache {
  private readonly sources = new Map<string, Promise<Omit<EvidenceSourceFact, "runs_for_head">>>();
  private readonly records = new Map<
    number,
    { record: CommandRecord | null; error: string | null }
  >();

  source(
    github: GitHubAdapter,
    baseSha: string,
    workflow: string,
  ): Promise<Omit<EvidenceSourceFact, "runs_for_head">> {
    // A failed read (GitHub down) is retried next time, not remembered.
    return rememberRead(
      this.sources,
      `${github.owner}/${github.repo}@${baseSha}:${workflow}`,
      CACHE_LIMIT,
      () => readEvidenceSource(github, baseSha, workflow),
    );
  }

  async record(
    github: GitHubAdapter,
    artifactId: number,
  ): Promise<{ record: CommandRecord | null; error: string | null }> {
    const known = this.records.get(artifactId);
    if (known) return known;
    const read = await readRecordArtifact(github, artifactId);
    remember(this.records, artifactId, read, CACHE_LIMIT);
    return read;
  }
}

/** The pinned workflow at the base, and every local path it uses, followed through local actions. */
async function readEvidenceSource(
  github: GitHubAdapter,
  baseSha: string,
  workflow: string,
): Promise<Omit<EvidenceSourceFact, "runs_for_head">> {
  const file = await github.fileAt(workflow, baseSha);
  if (!file) return { workflow, exists: false, uses: [], error: null };
  const uses = new Set<string>();
  let pending: { path: string; text: string; depth: number }[] = [
    { path: workflow, text: file.text, depth: 0 },
  ];
  while (pending.length > 0) {
    const next: typeof pending = [];
    for (const item of pending) {
      const found = localUses(item.text, item.path);
      if (!found.ok) return { workflow, exists: true, uses: [...uses], error: found.error };
      for (const use of found.uses) {
        if (uses.has(use)) continue;
        uses.add(use);
        if (use === "") continue; // the repository root covers everything already
        if (item.depth + 1 > MAX_USES_DEPTH) {
          return {
            workflow,
            exists: true,
            uses: [...uses],
            error: `local actions nest deeper than ${MAX_USES_DEPTH} levels at ${use}`,
          };
        }
        // A reusable workflow is a file; a local action is a directory with action.yml in it.
        const candidates = /\.ya?ml$/.test(use)
          ? [use]
          : [`${use}/action.yml`, `${use}/action.yaml`];
        for (const candidate of candidates) {
          const text = await github.fileAt(candidate, baseSha);
          if (text) {
            next.push({ path: candidate, text: text.text, depth: item.depth + 1 });
            break;
          }
        }
      }
    }
    pending = next;
  }
  return { workflow, exists: true, uses: [...uses].sort(), error: null };
}

/** The record inside a record artifact: exactly one file, of a sane size, valid by the schema. */
async function readRecordArtifact(
  github: GitHubAdapter,
  artifactId: number,
): Promise<{ record: CommandRecord | null; error: string | null }> {
  // A download that fails (GitHub or its storage down) throws: the job retries, and nothing is
  // cached. What the bytes say is cached, since an artifact never changes.
  const zip = await github.artifactZip(artifactId, MAX_ZIP_BYTES);
  let files: Record<string, Uint8Array>;
  const names: string[] = [];
  try {
    // The sizes in a zip are the uploader's word: fflate writes no more than the declared size,
    // and a declared size over the limit is never inflated.
    files = unzipSync(zip, {
      filter: (file) => {
        names.push(file.name);
        return file.name === RECORD_FILE_NAME && file.originalSize <= MAX_RECORD_BYTES;
      },
    });
  } catch (error) {
    return {
      record: null,
      error: `artifact ${artifactId} is not a readable zip: ${codeSpan(message(error))}`,
    };
  }
  const data = files[RECORD_FILE_NAME];
  if (names.length !== 1 || !data) {
    return {
      record: null,
      // Entry names are the uploader's text: code spans, never Markdown.
      error: `artifact ${artifactId} holds ${
        names.length === 0
          ? "no files"
          : names
              .slice(0, 5)
              .map((name) => codeSpan(name, 120))
              .join(", ")
      }, not exactly one ${RECORD_FILE_NAME} of at most ${MAX_RECORD_BYTES} bytes`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(data).toString("utf8"));
  } catch (error) {
    return { record: null, error: `${RECORD_FILE_NAME} is not JSON: ${codeSpan(message(error))}` };
  }
  const parsed = commandRecordSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      record: null,
      error: `${RECORD_FILE_NAME} is not a valid command record: ${codeSpan(`${first?.path.join(".") || "(root)"}: ${first?.message}`)}`,
    };
  }
  return { record: parsed.data, error: null };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface CollectedEvidence {
  source: EvidenceSourceFact;
  run: EvidenceRunFact | null;
}

/**
 * Reads what GitHub says about the newest run of the evidence workflow for the head, and
 * downloads the record it uploaded (only when the job is done and exactly one record of its
 * attempt exists). Older runs for the same head are history: the newest one decides.
 */
export async function collectEvidence(
  github: GitHubAdapter,
  cache: EvidenceCache,
  input: {
    /** The head the runs are listed for, on the event its kind runs on. */
    target: { kind: "pull_request" | "merge_group"; headSha: string };
    config: Config;
    baseSha: string;
    /** No run can have finished for this head yet (the event was its push): none is listed. */
    skipRuns?: boolean;
    /** A commit already read (the compare's), so the tested commit costs no call. */
    knownCommit?: (sha: string) => TestedCommitFact | null;
    /**
     * A completed job of a run as its `workflow_job` event showed it. It stands for the run's
     * job list only when it is the pinned job of the run's newest attempt: a completed job of an
     * attempt never changes, and GitHub signed the event.
     */
    completedJob?: { runId: number; job: EvidenceJob } | null;
  },
): Promise<CollectedEvidence> {
  const { workflow, job: jobName } = input.config.evidence;
  const [sourceRead, runs] = await Promise.all([
    cache.source(github, input.baseSha, workflow),
    input.skipRuns ? [] : github.workflowRunsFor(input.target.headSha, input.target.kind),
  ]);
  const ofWorkflow = runs.filter((run) => run.path === workflow);
  const source: EvidenceSourceFact = { ...sourceRead, runs_for_head: ofWorkflow.length };
  const run = ofWorkflow[0];
  if (!run) return { source, run: null };

  const known = input.completedJob;
  const shown =
    known &&
    known.runId === run.id &&
    known.job.run_attempt === run.run_attempt &&
    known.job.name === jobName &&
    known.job.status === "completed"
      ? known.job
      : null;
  const [jobs, artifacts] = await Promise.all([
    shown ? [shown] : github.latestJobs(run.id),
    github.recordArtifacts(run.id),
  ]);
  const job = jobs.find((j) => j.name === jobName) ?? null;
  const fact: EvidenceRunFact = {
    run,
    job,
    artifacts,
    record: null,
    record_error: null,
    tested_commit: null,
  };
  if (job?.status === "completed") {
    const named = artifacts.filter((a) => a.name === recordArtifactName(job.run_attempt));
    const only = named.length === 1 ? named[0] : undefined;
    if (only && !only.expired && only.size_in_bytes > MAX_ZIP_BYTES) {
      // GitHub's own size: no record agate writes comes near it, so it is not downloaded.
      fact.record_error = `artifact ${only.name} is ${only.size_in_bytes} bytes, more than the ${MAX_ZIP_BYTES} a command record can be`;
    } else if (only && !only.expired) {
      const read = await cache.record(github, only.id);
      fact.record = read.record;
      fact.record_error = read.error;
      if (read.record) {
        const tested = read.record.tested.sha;
        fact.tested_commit = input.knownCommit?.(tested) ?? (await github.commit(tested));
      }
    }
  }
  return { source, run: fact };
}
