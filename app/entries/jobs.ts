/**
 * The handoff entries' job kinds (their specs in schemas/jobs/entries.ts), registered with the
 * runtime by app/compose.ts.
 */
import { ENTRY_JOBS } from "../../schemas/jobs/entries.js";
import { isMaintainer } from "../github/maintainers.js";
import { type JobRegistration, registration } from "../runtime/jobs.js";
import { runEntryDeadlineJob } from "./deadline-job.js";
import { runEntryJob } from "./entry-job.js";
import { runPullRequestEntriesJob } from "./pull-request-entries.js";

/** Every job kind of the entries. */
export function entryJobs(): JobRegistration[] {
  return [
    registration(ENTRY_JOBS.entry, async (job, context) => {
      const github = await context.github(job.repository, job.installation);
      return runEntryJob(job, {
        github,
        store: context.store,
        now: context.now,
        appLogin: `${await context.appSlug()}[bot]`,
        isMaintainer: (account, maintainers) => isMaintainer(github, account, maintainers),
        // The organisation defaults as the gate's config reads them, shared by the process.
        readDefaults: (ref) => context.reads.orgDefaults(github, ref),
        ...(context.jobId === undefined ? {} : { jobId: context.jobId }),
        ...(context.retried ? { retried: true } : {}),
      });
    }),
    registration(ENTRY_JOBS.deadline, (job, context) =>
      runEntryDeadlineJob(job, { store: context.store }),
    ),
    registration(ENTRY_JOBS.pullRequestEntries, (job, context) =>
      runPullRequestEntriesJob(job, { store: context.store }),
    ),
  ];
}
