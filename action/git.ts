import { execFileSync } from "node:child_process";

/** Runs git in `cwd` and returns its stdout; the error names the git command that failed. */
export function git(cwd: string, args: string[], input?: string): string {
  try {
    return execFileSync("git", args, {
      cwd,
      input,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["pipe", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(
      `git ${args.join(" ")} failed in ${cwd}: ${stderr || (error as Error).message}`,
    );
  }
}

/** Like git(), but a failure is an answer ("no such object") rather than an error. */
export function gitMaybe(cwd: string, args: string[]): string | undefined {
  try {
    return git(cwd, args);
  } catch {
    return undefined;
  }
}
