import { describe, it } from "vitest";
import { ISOLATION_TESTS_REQUIRED, type RunnerUser, runnerUser } from "./runner-users.js";

/**
 * A describe block run as a runner user of a kind. Without one it is skipped, saying why; with
 * AGATE_REQUIRE_ISOLATION_TESTS=1 (CI) it fails instead.
 */
export function describeAsRunner(
  kind: RunnerUser["kind"],
  title: string,
  body: (user: RunnerUser) => void,
): void {
  const user = runnerUser(kind);
  if (typeof user !== "string") {
    describe(title, () => body(user));
    return;
  }
  if (ISOLATION_TESTS_REQUIRED) {
    describe(title, () => {
      it("runs as a runner user", () => {
        throw new Error(`${user}; AGATE_REQUIRE_ISOLATION_TESTS=1 makes this a failure`);
      });
    });
    return;
  }
  describe.skip(`${title} (skipped: ${user})`, () => {
    it("runs as a runner user", () => {});
  });
}
