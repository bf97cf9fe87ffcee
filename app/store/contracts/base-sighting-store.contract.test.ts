/**
 * The BaseSightingStore port's contract, with DeliveryLog's `sightings` that write it: its
 * behaviour through the ports alone, run against every backend in STORE_BACKENDS
 * (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import type { EventBase } from "../../../schemas/store.js";
import {
  delivery,
  type OpenContractDatabase,
  payloadOf,
  SHA_A,
  SHA_B,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import { InvalidInputError } from "../errors.js";
import type { BaseSightingStore } from "../ports/base-sighting-store.js";
import type { DeliveryLog } from "../ports/delivery-log.js";

type Port = BaseSightingStore & DeliveryLog;

const base = (pull_number: number, base_ref: string, head_sha = SHA_A): EventBase => ({
  repository: "octo/repo",
  pull_number,
  head_sha,
  base_ref,
});

function baseSightingStoreContract(backend: string, open: OpenContractDatabase<Port>): void {
  describe(`BaseSightingStore contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    /** A delivery received at `at`, naming `sightings`. */
    const receive = (id: string, at: string, sightings: EventBase[], payload = payloadOf(id)) =>
      t.port.recordDelivery({
        delivery: { ...delivery(id, payload), received_at: at },
        payload,
        jobs: [],
        sightings,
      });

    it("stores each base an event names with its delivery, listed oldest first; the first delivery naming one is kept", async () => {
      // A retarget to evil and straight back: both bases of the head are known.
      await receive("d1", "2025-01-01T10:00:00.000Z", [base(12, "main")]);
      await receive("d2", "2025-01-01T10:00:01.000Z", [base(12, "evil"), base(12, "main")]);
      await receive("d3", "2025-01-01T10:00:02.000Z", [base(12, "main"), base(12, "evil")]);
      await receive("d4", "2025-01-01T10:00:03.000Z", [base(13, "main", SHA_B)]);
      expect(await t.port.listBaseSightings({ repository: "octo/repo", headSha: SHA_A })).toEqual([
        { ...base(12, "main"), delivery_id: "d1", seen_at: "2025-01-01T10:00:00.000Z" },
        { ...base(12, "evil"), delivery_id: "d2", seen_at: "2025-01-01T10:00:01.000Z" },
      ]);
      expect(await t.port.listBaseSightings({ repository: "octo/other", headSha: SHA_A })).toEqual(
        [],
      );
    });

    it("a duplicate delivery writes nothing, and a conflicting one writes nothing either", async () => {
      await receive("d1", "2025-01-01T10:00:00.000Z", [base(12, "main")]);
      const again = await receive("d1", "2025-01-01T10:00:00.000Z", [base(12, "release")]);
      expect(again.status).toBe("duplicate");
      const other = await receive(
        "d1",
        "2025-01-01T10:00:00.000Z",
        [base(12, "stale")],
        payloadOf("changed"),
      );
      expect(other.status).toBe("conflict");
      expect(
        (await t.port.listBaseSightings({ repository: "octo/repo", headSha: SHA_A })).map(
          (s) => s.base_ref,
        ),
      ).toEqual(["main"]);
    });

    it("refuses a base that is not one, and then writes neither the delivery nor its jobs", async () => {
      await expect(
        receive("d1", "2025-01-01T10:00:00.000Z", [base(12, "main"), base(12, "")]),
      ).rejects.toThrow(InvalidInputError);
      expect(await t.port.getDelivery("d1")).toBeNull();
      expect(await t.port.listBaseSightings({ repository: "octo/repo", headSha: SHA_A })).toEqual(
        [],
      );
    });
  });
}

for (const backend of STORE_BACKENDS) baseSightingStoreContract(backend.name, backend.open);
