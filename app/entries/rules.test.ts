import { describe, expect, it } from "vitest";
import type { ExtendsRef } from "../../checks/config/extends.js";
import { readEscalationRules } from "./rules.js";

/**
 * The entries' escalation rules from a config that extends organisation defaults: read through the
 * reader they are given (the gate's remembered one), and never from the repository's file alone.
 */
const SHA = "0123456789abcdef0123456789abcdef01234567";
const OWN = `extends: acme/.github:agate.yml@${SHA}\ncommands: [{ name: test, run: "true" }]\n`;
const DEFAULTS = "version: 1\nescalation:\n  follow_up_limit: 4\n";
const github = {
  owner: "acme",
  defaultBranchFile: async () => ({ text: OWN }),
};

describe("readEscalationRules with extends", () => {
  it("reads the defaults through the reader it is given, once per call, and merges them", async () => {
    const asked: ExtendsRef[] = [];
    const read = await readEscalationRules(github, async (ref) => {
      asked.push(ref);
      return DEFAULTS;
    });
    expect(read).toMatchObject({ rules: { follow_up_limit: 4 }, problem: null });
    expect(asked.map((ref) => ref.reference)).toEqual([`acme/.github:agate.yml@${SHA}`]);
  });

  it("defaults refused by the reader make the config invalid: the escalation defaults hold, saying why", async () => {
    const read = await readEscalationRules(github, async () => ({ refused: "off main" }));
    expect(read.rules.follow_up_limit).toBe(1);
    expect(read.problem).toContain(
      `cannot use the defaults acme/.github:agate.yml@${SHA}: off main`,
    );
  });
});
