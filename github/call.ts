/**
 * What every call of github/ is made in: one repository, over one client, counted per operation
 * (GitHub's operation names, "pulls/get"), so the App can say what one event cost and a benchmark
 * can hold the figures (`npm run bench:app-calls`).
 */
import type { RestClient } from "./client.js";

/** Calls per operation, for one job (the App) or one command (the CLI). */
export class GitHubCalls {
  readonly byOperation = new Map<string, number>();

  readonly count = (operation: string): void => {
    this.byOperation.set(operation, (this.byOperation.get(operation) ?? 0) + 1);
  };

  get total(): number {
    return [...this.byOperation.values()].reduce((a, b) => a + b, 0);
  }
}

/** One repository over one client; each call counts itself before it is sent. */
export interface Repo {
  readonly client: RestClient;
  readonly owner: string;
  readonly repo: string;
  readonly count: (operation: string) => void;
}

export function repoOf(
  client: RestClient,
  owner: string,
  repo: string,
  calls: GitHubCalls = new GitHubCalls(),
): Repo {
  return { client, owner, repo, count: calls.count };
}

/** The owner and name every repository call starts with (and nothing else of `r`). */
export const at = (r: { owner: string; repo: string }) => ({ owner: r.owner, repo: r.repo });

/** The HTTP status of Octokit's error; undefined when there was none. */
export const statusOf = (error: unknown) => (error as { status?: number }).status;

/** `read()`, or `fallback` when GitHub answers with one of `statuses`; anything else throws. */
export async function unless<T, F>(
  statuses: readonly number[],
  fallback: F,
  read: () => Promise<T>,
): Promise<T | F> {
  try {
    return await read();
  } catch (error) {
    const status = statusOf(error);
    if (status !== undefined && statuses.includes(status)) return fallback;
    throw error;
  }
}

/**
 * Request options for a write that makes something new (a comment, an issue, a check run): the
 * client never sends it again by itself. When its answer is lost (a reset connection, a 502 after
 * GitHub made it), a second send would make a second one; the job fails instead, and its retry
 * reads what exists before it writes (app/runtime/write-once.ts, app/gate/check-runs.ts).
 */
export const NOT_RESENT = { retries: 0 };

/** P without the keys K (Omit would lose every key of a type with an index signature, as Octokit's). */
type Without<P, K extends string> = { [Key in keyof P as Key extends K ? never : Key]: P[Key] };

/**
 * Every page of a listing whose answer is an array, as one counted call (the figures count an
 * operation, not its pages), for this repository, at GitHub's largest page.
 */
export async function list<P, T>(
  r: Repo,
  operation: string,
  method: (params?: P) => Promise<{ data: T[] }>,
  params: Without<P, "owner" | "repo" | "per_page">,
): Promise<T[]> {
  r.count(operation);
  const where = { ...at(r), ...params, per_page: 100 };
  // paginate's overloads cannot be chosen for a method given as a parameter: its type is P's.
  return r.client.paginate(method as never, where as never) as Promise<T[]>;
}
