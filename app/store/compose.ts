/**
 * A Store is its ports together: each backend implements every port as an object of its own
 * (sqlite/, postgres/), and its store class gets their methods from here, bound to them, instead
 * of a delegating method per port method written out once per backend.
 */
import type { AuditLog } from "./ports/audit-log.js";
import type { BaseSightingStore } from "./ports/base-sighting-store.js";
import type { CheckRunLedger } from "./ports/check-run-ledger.js";
import type { DeliveryLog } from "./ports/delivery-log.js";
import type { EntryMentionStore } from "./ports/entry-mention-store.js";
import type { EntryStore } from "./ports/entry-store.js";
import type { EvaluationStore } from "./ports/evaluation-store.js";
import type { JobQueue } from "./ports/job-queue.js";
import type { ObservationStore } from "./ports/observation-store.js";
import type { OverrideStore } from "./ports/override-store.js";
import type { RecordStore } from "./ports/record-store.js";
import type { WriteIntentLedger } from "./ports/write-intent-ledger.js";
import type { Store } from "./store.js";

/** One object per port of Store. A port's public methods are its interface's, nothing more. */
export interface StorePorts {
  deliveries: DeliveryLog;
  jobs: JobQueue;
  records: RecordStore;
  evaluations: EvaluationStore;
  overrides: OverrideStore;
  observations: ObservationStore;
  baseSightings: BaseSightingStore;
  checkRuns: CheckRunLedger;
  audit: AuditLog;
  entries: EntryStore;
  mentions: EntryMentionStore;
  writeIntents: WriteIntentLedger;
}

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
/** T, where it has every method of Store but close(): a port Store gains fails to compile here. */
type CoversStore<T extends Omit<Store, "close">> = T;
/** Every port's methods together. */
type PortMethods = CoversStore<Intersection<StorePorts[keyof StorePorts]>>;

/**
 * The base of SqliteStore and PostgresStore: constructed with the ports, it is every port's
 * methods; the subclass adds close() and what is its own (opening, settings).
 */
export const PortedStore = class {
  constructor(ports: StorePorts) {
    // A port's methods are its own arrow properties (`name: Port["name"] = async (…) => …`,
    // typed by the port's interface), so copied they stay bound to it; its state (the
    // connection, a batch) stays its own.
    for (const port of Object.values(ports) as Record<string, unknown>[]) {
      for (const [name, value] of Object.entries(port)) {
        if (typeof value === "function") Object.assign(this, { [name]: value });
      }
    }
  }
} as unknown as new (
  ports: StorePorts,
) => PortMethods;
