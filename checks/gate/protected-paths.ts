import picomatch from "picomatch";
import { ALWAYS_PROTECTED_PATHS, type Config } from "../../schemas/config.js";
import type { ChangedFile } from "../../schemas/gate.js";

/**
 * The changed paths that need a maintainer's approval: `.github/**` and the config always (CI and
 * the grader must not be changed by the graded), plus the configured protected paths. A rename
 * counts for both its old and its new name, so moving a protected file out is a change too.
 */
export function protectedChanges(files: readonly ChangedFile[], config: Config): string[] {
  const isProtected = picomatch([...ALWAYS_PROTECTED_PATHS, ...config.protected_paths], {
    dot: true,
  });
  const touched = files.flatMap((file) =>
    file.previous_filename ? [file.filename, file.previous_filename] : [file.filename],
  );
  return [...new Set(touched.filter((path) => isProtected(path)))].sort();
}
