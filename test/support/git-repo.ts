import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Identity and dates fixed, so tests need no git config on the machine and SHAs are stable. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: "agate test",
  GIT_AUTHOR_EMAIL: "test@agate.invalid",
  GIT_COMMITTER_NAME: "agate test",
  GIT_COMMITTER_EMAIL: "test@agate.invalid",
  GIT_AUTHOR_DATE: "2026-12-01T12:00:00Z",
  GIT_COMMITTER_DATE: "2026-12-01T12:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export interface TestRepo {
  dir: string;
  git(...args: string[]): string;
  /** Writes (string) or deletes (null) files, commits them all, returns the new HEAD. */
  commit(files: Record<string, string | null>, message?: string): string;
  write(files: Record<string, string | null>): void;
  remove(): void;
}

/** A real git repository in a fresh temp dir, on branch main. */
export function makeRepo(prefix = "agate-repo-"): TestRepo {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...GIT_ENV } });
  const write = (files: Record<string, string | null>) => {
    for (const [path, text] of Object.entries(files)) {
      const full = join(dir, path);
      if (text === null) rmSync(full, { force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, text);
      }
    }
  };
  git("init", "--quiet", "--initial-branch=main");
  return {
    dir,
    git,
    write,
    commit(files, message = "change") {
      write(files);
      git("add", "--all");
      git("commit", "--quiet", "--allow-empty", "-m", message);
      return git("rev-parse", "HEAD").trim();
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
