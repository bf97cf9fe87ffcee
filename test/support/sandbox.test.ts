import { describe, expect, it } from "vitest";
import { REQUIRE_SANDBOX, sandboxSkipReason } from "./sandbox.js";

describe("tests that need a bubblewrap sandbox", () => {
  const missing = "bubblewrap (bwrap) is not on the App's PATH";

  it("run where a sandbox can be made", () => {
    expect(sandboxSkipReason(null, {})).toBeNull();
    expect(sandboxSkipReason(null, { [REQUIRE_SANDBOX]: "1" })).toBeNull();
  });

  it("are skipped elsewhere, saying why and how to make the skip a failure", () => {
    expect(sandboxSkipReason(missing, {})).toEqual({
      skip: `needs bubblewrap: ${missing}; set ${REQUIRE_SANDBOX}=1 to fail instead of skipping`,
    });
  });

  it("fail instead of skipping where AGATE_REQUIRE_SANDBOX=1 (.ci/run sets it)", () => {
    expect(sandboxSkipReason(missing, { [REQUIRE_SANDBOX]: "1" })).toEqual({
      fail: expect.stringContaining(`${REQUIRE_SANDBOX}=1 and no sandbox can be made: ${missing}`),
    });
  });
});
