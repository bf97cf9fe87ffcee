/** Maintainer overrides (`/agate accept`): append-only; each names one exact head, so a push voids it. */
import type { OverrideInput, StoredOverride } from "../../../schemas/store.js";
import type { HeadKey } from "./keys.js";

export interface OverrideStore {
  /** InvalidInputError when the input is outside the schema; nothing is written then. */
  appendOverride(input: OverrideInput): Promise<StoredOverride>;
  /** The overrides of that exact head, oldest first. */
  listOverrides(query: HeadKey): Promise<StoredOverride[]>;
}
