import { describe, expect, it } from "vitest";
import {
  commandForLabel,
  desiredEntryLabels,
  ENTRY_LABELS,
  issueStateFor,
  planEntryLabels,
} from "./projection.js";

describe("entry labels", () => {
  it("an entry carries its state and its derived priority", () => {
    expect(desiredEntryLabels("claimed", true)).toEqual(["agate:claimed", "agate:blocking"]);
    expect(desiredEntryLabels("resolved", true)).toEqual(["agate:resolved", "agate:background"]);
    expect(ENTRY_LABELS.size).toBe(7);
  });

  it("plans only the difference and leaves labels agate does not own", () => {
    expect(
      planEntryLabels(
        ["bug", "agate:open", "AGATE:BLOCKING", "agate:accepted"],
        ["agate:claimed", "agate:blocking"],
      ),
    ).toEqual({ add: ["agate:claimed"], remove: ["agate:open"] });
    expect(
      planEntryLabels(["agate:claimed", "agate:blocking"], desiredEntryLabels("claimed", true)),
    ).toEqual({
      add: [],
      remove: [],
    });
  });

  it("names the command that changes what a label shows", () => {
    expect(commandForLabel("agate:resolved")).toContain("`/answer");
    expect(commandForLabel("agate:escalated")).toContain("`/escalate");
    expect(commandForLabel("agate:blocking")).toContain("derived");
  });

  it("resolved and blocked are closed; open, claimed and escalated open", () => {
    expect(issueStateFor("resolved")).toEqual({ state: "closed", reason: "completed" });
    expect(issueStateFor("blocked")).toEqual({ state: "closed", reason: "not_planned" });
    expect(issueStateFor("claimed")).toEqual({ state: "open" });
    // Closing never decides an escalation: it stays open for the maintainer's /answer.
    expect(issueStateFor("escalated")).toEqual({ state: "open" });
  });
});
