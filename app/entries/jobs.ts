/** The handoff entry job kinds' handlers, registered in app/gate/job-handlers.ts's table. */
import type { EntryDeadlineJob, EntryJob } from "../../schemas/jobs/gate.js";
import type { GateDeps } from "../gate/job-deps.js";
import { GitHubAdapter } from "../github/adapter.js";
import { isMaintainer } from "../github/maintainers.js";
import { runEntryDeadlineJob } from "./deadline-job.js";
import { runEntryJob } from "./entry-job.js";

export async function handleEntryJob(job: EntryJob, deps: GateDeps): Promise<string> {
  const slug = await deps.appSlug();
  const github = new GitHubAdapter(await deps.octokitFor(job.installation), job.repository, slug);
  const { reads } = deps;
  return runEntryJob(job, {
    github,
    store: deps.store,
    now: deps.now,
    appLogin: `${slug}[bot]`,
    isMaintainer: (account, maintainers) => isMaintainer(github, account, maintainers),
    ...(reads ? { readDefaults: (ref) => reads.orgDefaults(github, ref) } : {}),
    ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
    ...(deps.retried ? { retried: true } : {}),
  });
}

export function handleEntryDeadlineJob(job: EntryDeadlineJob, deps: GateDeps): Promise<string> {
  return runEntryDeadlineJob(job, { store: deps.store });
}
