/** One problem in a user's file, located so that the user can go straight to it. */
export interface FileProblem {
  /** Field path such as `commands[1].timeout`; empty for the whole file or a syntax error. */
  path: string;
  line: number;
  column: number;
  message: string;
  /** The file the problem is in, when it is not the error's own (the defaults a config extends). */
  file?: string;
}

/**
 * A config (or other user-written file) that agate cannot use. Its message lists every problem
 * with its position, so one round trip fixes them all.
 */
export class ConfigurationError extends Error {
  override readonly name = "ConfigurationError";
  constructor(
    readonly file: string,
    readonly problems: readonly FileProblem[],
    headline = `${file} is not a valid agate config`,
  ) {
    super(
      [
        `${headline} (${problems.length} ${problems.length === 1 ? "problem" : "problems"}):`,
        ...problems.map((p) => `  - ${formatProblem(p)}`),
      ].join("\n"),
    );
  }
}

export function formatProblem(problem: FileProblem): string {
  const of = problem.file ? ` of ${problem.file}` : "";
  const where = `line ${problem.line}, column ${problem.column}${of}`;
  return problem.path
    ? `${problem.path} at ${where}: ${problem.message}`
    : `at ${where}: ${problem.message}`;
}
