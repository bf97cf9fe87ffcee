import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandsUserName, isolatedUser } from "./isolation.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the commands user", () => {
  it("is one per runner (its RUNNER_TEMP), so two runners of one machine never share one", () => {
    const a = commandsUserName({ RUNNER_TEMP: "/home/runner/work/_temp" }, "/w");
    expect(a).toMatch(/^agate-[0-9a-f]{10}$/);
    expect(commandsUserName({ RUNNER_TEMP: "/home/runner/work/_temp" }, "/other")).toBe(a);
    expect(commandsUserName({ RUNNER_TEMP: "/opt/runner2/_work/_temp" }, "/w")).not.toBe(a);
  });

  it("is never handed a work tree that holds agate's or the runner's own files", () => {
    const work = mkdtempSync(join(tmpdir(), "agate-work-"));
    dirs.push(work);
    const temp = join(work, "_temp");
    mkdirSync(temp);
    for (const agateEnv of [{ RUNNER_TEMP: temp }, { HOME: work }]) {
      expect(() =>
        isolatedUser({
          access: { kind: "root" },
          workTree: work,
          env: {},
          agateEnv,
          submodules: [],
        }),
      ).toThrow(
        /holds .*, which must stay agate's; check out the repository in a directory of its own/,
      );
    }
    expect(() =>
      isolatedUser({
        access: { kind: "root" },
        workTree: "/",
        env: {},
        agateEnv: {},
        submodules: [],
      }),
    ).toThrow(/the work tree \/ holds/);
  });
});
