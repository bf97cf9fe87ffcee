/**
 * The heads and bases a delivery names, stored with it in its own transaction
 * (BaseSightingStore): before any job reads the pull request live, so a base it held only for a
 * moment is known. An agent that retargets its pull request to a branch it pushed (holding its
 * own workflow at the evidence path), lets GitHub run that workflow for the head, and retargets
 * straight back, leaves the pull request on `main` by the time a pass looks; the `edited` events
 * say otherwise, and a head seen under two bases is never believed (checks/gate/decide.ts).
 *
 * Pure and quick, as the route: it reads the signed payload only, through the route's parse. GitHub names a pull request's
 * base in its own events (head and base; a retarget's `changes.base` too), in reviews, and in
 * the pull requests a workflow run or check run lists (pull-request-minimal, each with the base
 * it had when GitHub associated it; those of another repository are left out).
 */
import type { z } from "zod";
import type { EventBase } from "../../schemas/store.js";
import type { ROUTED_EVENTS, RoutedEvent } from "../../schemas/webhooks.js";
import { parseRouted } from "../runtime/routing.js";

type Event<E extends RoutedEvent> = z.output<(typeof ROUTED_EVENTS)[E]>;
type Listed = Event<"workflow_run">["workflow_run"]["pull_requests"][number];

const READERS: Partial<{ [E in RoutedEvent]: (e: Event<E>) => Omit<EventBase, "repository">[] }> = {
  pull_request: (e) => {
    const p = e.pull_request;
    const seen = [{ pull_number: p.number, head_sha: p.head.sha, base_ref: p.base.ref }];
    const from = e.changes?.base?.ref?.from;
    // The retarget's old base: the head was proposed to it until this moment.
    if (from) seen.push({ pull_number: p.number, head_sha: p.head.sha, base_ref: from });
    return seen;
  },
  pull_request_review: (e) => {
    const p = e.pull_request;
    return p.base ? [{ pull_number: p.number, head_sha: p.head.sha, base_ref: p.base.ref }] : [];
  },
  workflow_run: (e) => listed(e.workflow_run.pull_requests, e.workflow_run.head_sha, e),
  check_run: (e) => listed(e.check_run.pull_requests, e.check_run.head_sha, e),
};

/** The pull requests a run or check lists, of this repository, with the base each had. */
function listed(
  pulls: readonly Listed[],
  headSha: string,
  e: { repository: { id?: number | undefined } },
): Omit<EventBase, "repository">[] {
  return pulls.flatMap((p) => {
    if (!p.base) return [];
    const theirs = p.base.repo?.id;
    if (theirs !== undefined && e.repository.id !== undefined && theirs !== e.repository.id) {
      return [];
    }
    return [{ pull_number: p.number, head_sha: p.head?.sha ?? headSha, base_ref: p.base.ref }];
  });
}

export function eventBases(event: string, payload: unknown): EventBase[] {
  if (!Object.hasOwn(READERS, event)) return [];
  const name = event as RoutedEvent;
  // The route's parse of the same payload, not a second one (routing.ts).
  const parsed = parseRouted(name, payload);
  if (!parsed) return [];
  const read = READERS[name] as (e: unknown) => Omit<EventBase, "repository">[];
  const repository = parsed.repository.full_name;
  const unique = new Map<string, EventBase>();
  for (const seen of read(parsed)) {
    if (seen.base_ref === "") continue;
    unique.set(`${seen.pull_number}\n${seen.head_sha}\n${seen.base_ref}`, {
      repository,
      ...seen,
    });
  }
  return [...unique.values()];
}
