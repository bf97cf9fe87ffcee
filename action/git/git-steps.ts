import { type GitOptions, gitAsync, gitBuffer } from "./git.js";

/**
 * A git process a piece of agate's own work asks for (the shadow's build, what is read before the
 * first command), in `cwd` or against a shadow. `maybe`: a failure is an answer (undefined), not
 * an error.
 */
export interface GitRequest extends GitOptions {
  args: string[];
  maybe?: true;
}

type Answer = Buffer | undefined;

/**
 * Work written once as a generator that yields the git processes it needs (several at once when
 * none needs another's answer) and is resumed with their output; a failure is thrown into it.
 * `runNow` answers each at once, in order (git's synchronous calls); `runInBackground` starts each
 * batch's processes together without blocking the event loop, so they run while agate's bundle
 * loads. The same steps either way: the same arguments and hardening (git.ts), in the same order
 * of dependence.
 */
export type GitSteps<T> = Generator<GitRequest[], T, Answer[]>;

const answerNow = (cwd: string, request: GitRequest): Answer => {
  try {
    return gitBuffer(cwd, request.args, request);
  } catch (error) {
    if (request.maybe) return undefined;
    throw error;
  }
};

export function runNow<T>(cwd: string, steps: GitSteps<T>): T {
  let next = steps.next([]);
  while (!next.done) {
    const requests = next.value;
    let answers: Answer[];
    try {
      answers = requests.map((request) => answerNow(cwd, request));
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answers);
  }
  return next.value;
}

/**
 * runNow() without blocking. Its promise settles only once every git process it started has
 * exited (allSettled, never the first failure alone): whoever awaits it knows none of them still
 * reads the repository's `.git`, which the first command may rewrite (shadow-git.ts).
 */
export async function runInBackground<T>(cwd: string, steps: GitSteps<T>): Promise<T> {
  let next = steps.next([]);
  while (!next.done) {
    const settled = await Promise.allSettled(
      next.value.map((request) =>
        gitAsync(cwd, request.args, request).catch((error: unknown) => {
          if (request.maybe) return undefined;
          throw error;
        }),
      ),
    );
    const failed = settled.find((one) => one.status === "rejected");
    next = failed
      ? steps.throw(failed.reason)
      : steps.next(settled.map((one) => (one.status === "fulfilled" ? one.value : undefined)));
  }
  return next.value;
}
