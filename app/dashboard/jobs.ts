/** The dashboard job kind's handler, registered in app/gate/job-handlers.ts's table. */
import type { DashboardJob } from "../../schemas/jobs/gate.js";
import type { GateDeps } from "../gate/job-deps.js";
import { GitHubAdapter } from "../github/adapter.js";
import { runDashboardJob } from "./job.js";

export async function handleDashboardJob(job: DashboardJob, deps: GateDeps): Promise<string> {
  const slug = await deps.appSlug();
  const github = new GitHubAdapter(await deps.octokitFor(job.installation), job.repository, slug);
  const line = await runDashboardJob(job, { github, store: deps.store, appLogin: `${slug}[bot]` });
  return `${line} (${github.totalCalls} GitHub calls)`;
}
