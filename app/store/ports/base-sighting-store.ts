/**
 * Every head and base a pull request had, as GitHub's own events named them. GitHub's check runs
 * and workflow runs belong to a commit, not to a pull request or a base: a run made for the head
 * while the pull request targeted another branch ran that branch's workflow, which whoever can
 * push that branch wrote. A pass reads the pull request live, by which time a base held for a
 * moment may be gone again, so the bases come from the events themselves: written by
 * DeliveryLog.recordDelivery in the delivery's own transaction (`sightings`), before any job of
 * it runs, and read here.
 */
import type { BaseSighting } from "../../../schemas/store.js";

export interface BaseSightingStore {
  /**
   * Every pull request and base an event named with this head, oldest first: one row per pull
   * request and base, the first delivery that named it kept.
   */
  listBaseSightings(query: { repository: string; headSha: string }): Promise<BaseSighting[]>;
}
