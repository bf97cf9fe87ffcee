import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { AGATE_APP_EVENTS, AGATE_APP_PERMISSIONS, covers } from "./app-requirements.js";

const manifest = parse(readFileSync(join(import.meta.dirname, "..", "..", "app.yml"), "utf8")) as {
  default_events: string[];
  default_permissions: Record<string, string>;
};

describe("what the doctor expects of the App", () => {
  it("is exactly what app.yml registers: a change there must change the doctor too", () => {
    expect(AGATE_APP_PERMISSIONS).toEqual(manifest.default_permissions);
    expect([...AGATE_APP_EVENTS].sort()).toEqual([...manifest.default_events].sort());
  });

  it("compares levels: write covers read, read does not cover write, none covers nothing", () => {
    expect(covers("write", "read")).toBe(true);
    expect(covers("admin", "write")).toBe(true);
    expect(covers("read", "write")).toBe(false);
    expect(covers(undefined, "read")).toBe(false);
    expect(covers("none", "read")).toBe(false);
  });
});
