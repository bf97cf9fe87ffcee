import { describe, expect, it } from "vitest";
import { delivery } from "../../test/support/store.js";
import { parseDeliveryInput, payloadDigest } from "./delivery-input.js";
import { StoreError } from "./errors.js";

describe("a recordDelivery input's digest check", () => {
  const body = JSON.stringify({ action: "opened", repository: { full_name: "octo/repo" } });

  it("reuses the digest the intake just computed only for the very same text", () => {
    const digest = payloadDigest(body);
    expect(digest).toBe(delivery("d-1", body).payload_sha256);
    expect(
      parseDeliveryInput({ delivery: delivery("d-1", body), payload: body, jobs: [] }).payload,
    ).toBe(body);
    // The digest of `body` remembered, then another text under it: refused, not taken on trust.
    payloadDigest(body);
    const swapped = { delivery: delivery("d-2", body), payload: `${body} `, jobs: [] };
    expect(() => parseDeliveryInput(swapped)).toThrow(StoreError);
  });

  it("hashes again what it was not handed before", () => {
    payloadDigest(body);
    const other = `${body}\n`;
    expect(
      parseDeliveryInput({ delivery: delivery("d-3", other), payload: other, jobs: [] }).delivery
        .id,
    ).toBe("d-3");
  });
});
