import pkg from "../package.json" with { type: "json" };

/** agate's own version: part of every grader version, so a record names the code that judged it. */
export const AGATE_VERSION: string = pkg.version;
