/** The write intents' rows on either backend. */
import {
  completeWriteIntentSchema,
  type WriteIntent,
  writeIntentInputSchema,
  writeIntentSchema,
} from "../../../schemas/store.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { inputOf, parseRow } from "../validate.js";

export const WRITE_INTENT_COLUMNS = `id, key, scope, repository, target, kind, body, marker,
  recorded_at, github_id, done_at`;

export function writeIntentFromRow(row: Record<string, unknown>): WriteIntent {
  return parseRow(writeIntentSchema, row, "write_intents", String(row.key));
}

/** The intent as completeWriteIntent left it: there, and done by this write (GitHub's id). */
export function checkCompleted(
  done: WriteIntent | null,
  key: string,
  githubId: number,
): WriteIntent {
  if (!done) throw new NotFoundError(`no write intent ${key}: record it before the write`);
  if (done.github_id !== githubId) {
    throw new InvalidInputError(
      "write intent",
      `${key} was completed with GitHub id ${done.github_id}, not ${githubId}: one intent is one write`,
    );
  }
  return done;
}

export const intentInput = inputOf(writeIntentInputSchema, "write intent");

export const completionInput = inputOf(completeWriteIntentSchema, "write intent");
