/**
 * The status's version and bounds (schemas/gate-status.ts), on their own: the Action's bundle
 * needs them for its `status` output and none of the gate's schemas.
 */

/** The version of the status shapes; a reader refuses any other. */
export const GATE_STATUS_VERSION = 1;

/** How many characters of a failing command's output the status keeps (its end). */
export const STATUS_TAIL_CHARS = 4_000;
