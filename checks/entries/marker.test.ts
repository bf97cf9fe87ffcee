import { describe, expect, it } from "vitest";
import { entryStatus, markerPrefix, parseReplyMarker, renderReplyMarker } from "./marker.js";

const APP = "agate[bot]";
const reply = (version: number, kind: string, state: string, actor: string, comment = 0) => ({
  login: APP,
  body: `Some text.\n\n${renderReplyMarker({ version, kind: kind as never, state: state as never, actor, comment })}`,
});

describe("reply markers", () => {
  it("read back what they write; a version's prefix does not match another version's", () => {
    const marker = {
      version: 3,
      kind: "claimed" as const,
      state: "claimed" as const,
      actor: "b[bot]",
      comment: 77,
    };
    expect(parseReplyMarker(`x\n${renderReplyMarker(marker)}`)).toEqual(marker);
    expect(parseReplyMarker(renderReplyMarker({ ...marker, comment: null }))?.comment).toBeNull();
    expect(renderReplyMarker({ ...marker, version: 30 })).not.toContain(markerPrefix(3));
    expect(parseReplyMarker("no marker")).toBeNull();
    expect(
      parseReplyMarker("<!-- agate:entry-event v=1 kind=nope state=open actor=a comment=0 -->"),
    ).toBeNull();
  });

  it("entryStatus folds agate's replies: the owner from the claim until it ends; refusals and others' comments do not count", () => {
    const comments = [
      reply(1, "opened", "open", "agent-a"),
      reply(2, "claimed", "claimed", "agent-b", 10),
      reply(3, "refused", "claimed", "agent-c", 11),
      {
        login: "agent-c",
        body: renderReplyMarker({
          version: 9,
          kind: "claimed",
          state: "claimed",
          actor: "agent-c",
          comment: 12,
        }),
      },
      reply(4, "asked", "claimed", "agent-b", 13),
    ];
    expect(entryStatus(comments, APP)).toEqual({ state: "claimed", owner: "agent-b", version: 4 });
    expect(entryStatus([...comments, reply(5, "claim_expired", "open", "agate")], APP)).toEqual({
      state: "open",
      owner: null,
      version: 5,
    });
    expect(
      entryStatus([...comments, reply(5, "answered", "resolved", "agent-b", 14)], APP)?.owner,
    ).toBe("agent-b");
    expect(entryStatus([{ login: "x", body: "hi" }], APP)).toBeNull();
  });
});
