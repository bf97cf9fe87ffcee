/** The handoff entry job kinds' handlers, registered in app/gate/job-handlers.ts's table. */
import type { EntryDeadlineJob, EntryJob } from "../../schemas/jobs.js";
import type { GateDeps } from "../gate/job-deps.js";
import { GitHubAdapter } from "../github/adapter.js";
import { runEntryDeadlineJob } from "./deadline-job.js";
import { runEntryJob } from "./entry-job.js";

/**
 * Listed logins only, for now: the gate's own test (teams, and write access when none is
 * listed) is `isMaintainer` in app/gate/gather.ts, not exported; once it is in a shared module,
 * it replaces this, and a team member may /block, /escalate and decide an escalation too.
 */
const listedLogin = async (login: string, maintainers: string[]): Promise<boolean> =>
  maintainers.some(
    (m) => !m.includes("/") && m.replace(/^@/, "").toLowerCase() === login.toLowerCase(),
  );

export async function handleEntryJob(job: EntryJob, deps: GateDeps): Promise<string> {
  const slug = await deps.appSlug();
  const github = new GitHubAdapter(await deps.octokitFor(job.installation), job.repository, slug);
  return runEntryJob(job, {
    github,
    store: deps.store,
    now: deps.now,
    appLogin: `${slug}[bot]`,
    isMaintainer: listedLogin,
  });
}

export function handleEntryDeadlineJob(job: EntryDeadlineJob, deps: GateDeps): Promise<string> {
  return runEntryDeadlineJob(job, { store: deps.store });
}
