/** Maintainer overrides (`/agate accept`): append-only; each names one exact head, so a push voids it. */
import type { OverrideInput, StoredOverride } from "../../../schemas/store.js";
import type { AppendOnce, HeadKey } from "./keys.js";

export interface OverrideStore {
  /**
   * InvalidInputError when the input is outside the schema; nothing is written then. With a
   * dedupe key already used (AppendOnce: the comment it came from), nothing is written and the
   * override stored under it is returned.
   */
  appendOverride(input: OverrideInput, options?: AppendOnce): Promise<StoredOverride>;
  /** The overrides of that exact head, oldest first. */
  listOverrides(query: HeadKey): Promise<StoredOverride[]>;
}
