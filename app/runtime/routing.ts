/**
 * Which jobs a webhook delivery enqueues: a pure function of the event name and payload, so the
 * webhook path stays a database write. The gate's route is app/gate/route.ts.
 */
import type { EventBase, NewJob } from "../../schemas/store.js";

/** `deliveryId` is GitHub's X-GitHub-Delivery, which the jobs name as their trigger. */
export type Route = (event: string, payload: unknown, deliveryId: string) => NewJob[];

/**
 * The heads and bases a delivery names, stored in its transaction before any job runs (the
 * gate's is app/gate/event-bases.ts): pure, as the route.
 */
export type Observe = (event: string, payload: unknown) => EventBase[];
