/** The keys most of the store's queries take. */
import type { z } from "zod";
import type { appendOnceSchema, pullRequestKeySchema } from "../../../schemas/store.js";

/** One pull request of one repository. */
export type PullRequestKey = z.infer<typeof pullRequestKeySchema>;

/** One exact head of a pull request: what a record, an override or an observation binds to. */
export interface HeadKey extends PullRequestKey {
  headSha: string;
}

/** A key that makes an append once (schemas/store.ts). */
export type AppendOnce = z.infer<typeof appendOnceSchema>;
