/** Tests only: what an error that lists its problems says when a parse refuses its input. */
import { expect } from "vitest";

/**
 * The problems of the `type` error `parse` throws; the test fails when it throws another error,
 * or accepts (`what` names the input in that message).
 */
export function refusedWith<E extends Error & { problems: unknown }>(
  type: abstract new (...args: never[]) => E,
  parse: () => unknown,
  what: string,
): E["problems"] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return (error as E).problems;
  }
  throw new Error(`expected ${what} to be refused`);
}
