/**
 * The write-intent ledger: a GitHub write that is not idempotent by nature (a comment) is
 * recorded here before it is sent, with the hidden marker it carries, and completed with GitHub's
 * id after. A job retried after a crash finds its intents: a completed one is not sent again, a
 * pending one is looked for on GitHub by its marker before it is sent (app/runtime/write-once.ts).
 * Rows are never deleted; one changes only once, pending to completed.
 */
import type { z } from "zod";
import type {
  completeWriteIntentSchema,
  WriteIntent,
  WriteIntentInput,
} from "../../../schemas/store.js";

export interface WriteIntentLedger {
  /**
   * Records the intent unless one with its key exists: then that one is returned untouched (its
   * body and marker are what the first run may have sent) with `created: false`.
   * InvalidInputError when the input is outside the schema.
   */
  recordWriteIntent(input: WriteIntentInput): Promise<{ intent: WriteIntent; created: boolean }>;
  /**
   * The write was made (or found made): GitHub's id for it. Completing it again with the same id
   * changes nothing; NotFoundError when there is no such intent, InvalidInputError when it was
   * completed with another id.
   */
  completeWriteIntent(query: z.infer<typeof completeWriteIntentSchema>): Promise<WriteIntent>;
  /** The intents of a scope not completed yet, oldest first. */
  listPendingWriteIntents(query: { scope: string }): Promise<WriteIntent[]>;
}
