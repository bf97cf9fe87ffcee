import { describe, expect, it } from "vitest";
import { BASE, HEAD, TREE } from "../../test/support/gate-facts.js";
import { mergeGroupBaseIn, mergeGroupExternalId, pullRequestExternalId } from "./external-id.js";

describe("the agate check's external id: one writer and one reader per format", () => {
  const group = {
    repository: "octo/widgets",
    head_sha: HEAD,
    head_ref: "refs/heads/gh-readonly-queue/main/pr-7-1111111111111111111111111111111111111111",
    base_sha: BASE,
  };

  it("reads back the base a merge group's id was written with, for that head only", () => {
    const id = mergeGroupExternalId(group);
    expect(mergeGroupBaseIn(id, HEAD)).toBe(BASE);
    expect(mergeGroupBaseIn(id, TREE)).toBeNull();
  });

  it("never reads a pull request's id as a merge group's", () => {
    const id = pullRequestExternalId({ repository: "octo/widgets", number: 7, head_sha: HEAD });
    expect(id).toBe(`agate:octo/widgets#7@${HEAD}`);
    expect(mergeGroupBaseIn(id, HEAD)).toBeNull();
    expect(mergeGroupBaseIn(null, HEAD)).toBeNull();
  });
});
