/**
 * Which jobs a webhook delivery enqueues: a pure function of the event name and payload, so the
 * webhook path stays a database write. The runtime knows no domain: each domain (the gate, the
 * entries) says which jobs an event makes, and app/compose.ts hands the composed route to the
 * server. The payload is parsed once here, with the schemas in schemas/webhooks.ts; a payload
 * that does not parse, or an event no domain routes, enqueues nothing (the delivery itself is
 * still recorded).
 */
import type { z } from "zod";
import type { Trigger } from "../../schemas/jobs/index.js";
import type { EventBase, NewJob } from "../../schemas/store.js";
import { INSTALLATION_EVENTS, ROUTED_EVENTS, type RoutedEvent } from "../../schemas/webhooks.js";

/** `deliveryId` is GitHub's X-GitHub-Delivery, which the jobs name as their trigger. */
export type Route = (event: string, payload: unknown, deliveryId: string) => NewJob[];

/**
 * The heads and bases a delivery names, stored in its transaction before any job runs (the
 * gate's is app/gate/event-bases.ts): pure, as the route.
 */
export type Observe = (event: string, payload: unknown) => EventBase[];

export type RoutedPayload<E extends RoutedEvent> = z.output<(typeof ROUTED_EVENTS)[E]>;
export type InstallationEvent = keyof typeof INSTALLATION_EVENTS;
export type InstallationPayload<E extends InstallationEvent> = z.output<
  (typeof INSTALLATION_EVENTS)[E]
>;

/**
 * A delivery's payload parsed with its event's schema, or null when it does not parse. The route
 * and the observer (app/gate/event-bases.ts) both read the same parse of the same object: the
 * schema walk of a 23 KiB pull_request was about 35 µs, paid twice per delivery on the webhook
 * path. Keyed weakly by the payload object, so a parse lives as long as its delivery's payload;
 * both readers are pure: neither changes what the other reads.
 */
const parses = new WeakMap<object, Map<string, unknown>>();

export function parseRouted<E extends RoutedEvent>(
  event: E,
  payload: unknown,
): RoutedPayload<E> | null {
  const parse = () => {
    const parsed = ROUTED_EVENTS[event].safeParse(payload);
    return parsed.success ? (parsed.data as RoutedPayload<E>) : null;
  };
  if (typeof payload !== "object" || payload === null) return parse();
  let byEvent = parses.get(payload);
  if (!byEvent) {
    byEvent = new Map();
    parses.set(payload, byEvent);
  }
  if (!byEvent.has(event)) byEvent.set(event, parse());
  return byEvent.get(event) as RoutedPayload<E> | null;
}

/** What every job of a delivery names: its repository, the installation, what caused it. */
export interface DeliveryTarget {
  repository: string;
  installation: number;
  trigger: Trigger;
}

/** One domain's jobs, per event it routes. */
export interface DomainRoutes {
  events?: {
    [E in RoutedEvent]?: (event: RoutedPayload<E>, target: DeliveryTarget) => NewJob[];
  };
  /** An installation's events name its repositories, not one. */
  installations?: {
    [E in InstallationEvent]?: (event: InstallationPayload<E>, trigger: Trigger) => NewJob[];
  };
}

/**
 * Every domain's jobs for a delivery, domain after domain in the order given: jobs of one
 * concurrency key run in the order they were queued, so the order is the domains' contract (an
 * entries pass of a reopened pull request before its gate pass; app/compose.test.ts pins it).
 */
export function composeRoutes(domains: readonly DomainRoutes[]): Route {
  return (event, payload, deliveryId) => {
    if (Object.hasOwn(INSTALLATION_EVENTS, event)) {
      const name = event as InstallationEvent;
      const parsed = INSTALLATION_EVENTS[name].safeParse(payload);
      if (!parsed.success) return [];
      const trigger: Trigger = { event, action: parsed.data.action, delivery_id: deliveryId };
      return domains.flatMap((domain) => {
        const route = domain.installations?.[name] as
          | ((e: unknown, trigger: Trigger) => NewJob[])
          | undefined;
        return route?.(parsed.data, trigger) ?? [];
      });
    }
    if (!Object.hasOwn(ROUTED_EVENTS, event)) return [];
    const name = event as RoutedEvent;
    const parsed = parseRouted(name, payload);
    if (!parsed) return [];
    const target: DeliveryTarget = {
      repository: parsed.repository.full_name,
      installation: parsed.installation.id,
      trigger: { event, action: parsed.action ?? null, delivery_id: deliveryId },
    };
    return domains.flatMap((domain) => {
      const route = domain.events?.[name] as
        | ((e: unknown, target: DeliveryTarget) => NewJob[])
        | undefined;
      return route?.(parsed, target) ?? [];
    });
  };
}
