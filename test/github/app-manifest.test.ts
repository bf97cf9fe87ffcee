/**
 * The simulator's App asks for what app.yml asks for, no more and no less: a permission the code
 * needs but app.yml lacks would pass every test here and fail on GitHub (403).
 */
import { describe, expect, it } from "vitest";
import { APP_MANIFEST as manifest } from "../support/app-manifest.js";
import { APP_EVENTS, DEFAULT_INSTALLATION_PERMISSIONS } from "./world.js";

describe("app.yml and the simulator's App", () => {
  it("have the same permissions", () => {
    expect(DEFAULT_INSTALLATION_PERMISSIONS).toEqual(manifest.default_permissions);
  });

  it("subscribe to the same events", () => {
    expect([...APP_EVENTS].sort()).toEqual([...manifest.default_events].sort());
  });

  it("ask for what handoff entries need: issues write and the issues event", () => {
    expect(manifest.default_permissions.issues).toBe("write");
    expect(manifest.default_events).toContain("issues");
  });
});
