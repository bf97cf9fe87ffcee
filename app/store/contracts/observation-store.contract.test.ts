/**
 * The ObservationStore port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import {
  type OpenContractDatabase,
  SHA_A,
  SHA_B,
  SHA_C,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import type { ObservationStore } from "../ports/observation-store.js";

const PR = { repository: "octo/repo", pullNumber: 12 };

function observationStoreContract(
  backend: string,
  open: OpenContractDatabase<ObservationStore>,
): void {
  describe(`ObservationStore contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    it("records a head once per pull request and base, listed in order", async () => {
      const store = t.port;
      const seen = (pull_number: number, base_ref: string, observed_at: string) =>
        store.recordHeadObservation({
          repository: "octo/repo",
          head_sha: SHA_A,
          pull_number,
          base_ref,
          base_sha: SHA_C,
          observed_at,
        });
      await seen(12, "main", "2025-01-01T10:00:00.000Z");
      await seen(12, "main", "2025-01-01T11:00:00.000Z");
      await seen(13, "release", "2025-01-01T12:00:00.000Z");
      expect(await store.listHeadObservations({ repository: "octo/repo", headSha: SHA_A })).toEqual(
        [
          { pull_number: 12, base_ref: "main" },
          { pull_number: 13, base_ref: "release" },
        ],
      );
      expect(await store.listHeadObservations({ repository: "octo/repo", headSha: SHA_B })).toEqual(
        [],
      );
    });

    it("knows the head and base each pull request was seen with last, a head it moved back to included, as instants", async () => {
      const store = t.port;
      const seen = (
        head_sha: string,
        pull_number: number,
        observed_at: string,
        base_ref = "main",
        base_sha: string | null = SHA_C,
      ) =>
        store.recordHeadObservation({
          repository: "octo/repo",
          head_sha,
          pull_number,
          base_ref,
          base_sha,
          observed_at,
        });
      const main = (head_sha: string) => ({ head_sha, base_ref: "main", base_sha: SHA_C });
      expect(await store.newestHead(PR)).toBeNull();
      await seen(SHA_A, 12, "2025-01-01T10:00:00.000Z");
      await seen(SHA_B, 12, "2025-01-01T11:00:00.000Z");
      expect(await store.newestHead(PR)).toEqual(main(SHA_B));
      // Back to A, seen before: the newest again (its first sighting is not what counts here).
      await seen(SHA_A, 12, "2025-01-01T12:00:00.000Z");
      expect(await store.newestHead(PR)).toEqual(main(SHA_A));
      // Retargeted: the same head under another base.
      await seen(SHA_A, 12, "2025-01-01T12:30:00.000Z", "release");
      expect(await store.newestHead(PR)).toEqual({
        head_sha: SHA_A,
        base_ref: "release",
        base_sha: SHA_C,
      });
      // Older, though its text sorts after (12:15Z written at +02:00): it changes nothing.
      await seen(SHA_C, 12, "2025-01-01T14:15:00.000+02:00");
      expect(await store.newestHead(PR)).toEqual({
        head_sha: SHA_A,
        base_ref: "release",
        base_sha: SHA_C,
      });
      // Newer, though its text sorts before (12:45Z written at -01:00).
      await seen(SHA_C, 12, "2025-01-01T11:45:00.000-01:00");
      expect(await store.newestHead(PR)).toEqual(main(SHA_C));
      // Another pull request's heads are its own; the first sightings are all still listed.
      await seen(SHA_B, 13, "2025-01-01T13:00:00.000Z");
      expect(await store.newestHead(PR)).toEqual(main(SHA_C));
      expect(await store.newestHead({ ...PR, pullNumber: 13 })).toEqual(main(SHA_B));
      // The base branch moved on under the same head: the newest keeps the base commit seen last,
      // and an unknown one (as rows the migration carried over have) as null.
      await seen(SHA_C, 12, "2025-01-01T14:00:00.000Z", "main", SHA_A);
      expect(await store.newestHead(PR)).toEqual({ ...main(SHA_C), base_sha: SHA_A });
      await seen(SHA_C, 12, "2025-01-01T15:00:00.000Z", "main", null);
      expect(await store.newestHead(PR)).toEqual({ ...main(SHA_C), base_sha: null });
      expect(await store.listHeadObservations({ repository: "octo/repo", headSha: SHA_A })).toEqual(
        [
          { pull_number: 12, base_ref: "main" },
          { pull_number: 12, base_ref: "release" },
        ],
      );
      await expect(store.newestHead({ ...PR, pullNumber: 0 })).rejects.toThrow(
        /newest head's pull request/,
      );
      await expect(store.newestHead({ repository: "", pullNumber: 12 })).rejects.toThrow(
        /newest head's pull request/,
      );
    });

    it("records a test merge commit once per head, listed oldest first", async () => {
      const store = t.port;
      const seen = (merge_sha: string, observed_at: string) =>
        store.recordMergeCommit({
          repository: "octo/repo",
          pull_number: 12,
          head_sha: SHA_A,
          merge_sha,
          observed_at,
        });
      await seen(SHA_B, "2025-01-01T10:00:00.000Z");
      await seen(SHA_B, "2025-01-01T11:00:00.000Z");
      await seen(SHA_C, "2025-01-01T12:00:00.000Z");
      expect(await store.listMergeCommits({ ...PR, headSha: SHA_A })).toEqual([SHA_B, SHA_C]);
      expect(await store.listMergeCommits({ ...PR, headSha: SHA_B })).toEqual([]);
    });

    it("keeps the newest pull request sighting by GitHub's updated_at; an older one changes nothing", async () => {
      const store = t.port;
      const sighting = (updated_at: string, digest: string) => ({
        repository: "octo/repo",
        pull_number: 12,
        updated_at,
        digest: digest.repeat(64),
        observed_at: "2025-01-01T12:00:00.000Z",
      });
      expect(await store.latestPullRequestSighting(PR)).toBeNull();
      await store.recordPullRequestSighting(sighting("2025-01-01T10:00:05Z", "a"));
      // Older, even written in another format: ignored.
      await store.recordPullRequestSighting(sighting("2025-01-01T10:00:04.999Z", "b"));
      expect(await store.latestPullRequestSighting(PR)).toEqual(
        sighting("2025-01-01T10:00:05Z", "a"),
      );
      // As new: replaces (two views of one second cannot be ordered; the caller reads live).
      await store.recordPullRequestSighting(sighting("2025-01-01T10:00:05Z", "c"));
      expect((await store.latestPullRequestSighting(PR))?.digest).toBe("c".repeat(64));
      await store.recordPullRequestSighting(sighting("2025-01-01T10:00:06Z", "d"));
      expect(await store.latestPullRequestSighting(PR)).toEqual(
        sighting("2025-01-01T10:00:06Z", "d"),
      );
      expect(await store.latestPullRequestSighting({ ...PR, pullNumber: 13 })).toBeNull();
    });

    it("refuses a sighting that is not one, naming the field", async () => {
      await expect(
        t.port.recordPullRequestSighting({
          repository: "octo/repo",
          pull_number: 12,
          updated_at: "yesterday",
          digest: "a".repeat(64),
          observed_at: "2025-01-01T12:00:00.000Z",
        }),
      ).rejects.toThrow(/updated_at/);
    });
  });
}

for (const backend of STORE_BACKENDS) observationStoreContract(backend.name, backend.open);
