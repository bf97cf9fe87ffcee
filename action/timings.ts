/**
 * Where a run's time goes, for scripts/bench-action.ts: each mark ends a phase (the time since the
 * previous mark, or since the process started for the first), and a phase may end several times
 * (one per command). `isolation` is the commands user's making and removal (once per job),
 * `handover` the work tree's handing over and taking back around each command. With
 * AGATE_TIMINGS=1 the marks go to stderr as one line at the end; nothing else reads them, and
 * nothing about the record depends on them.
 */
export type Phase =
  | "load"
  | "config"
  | "snapshot"
  | "isolation"
  | "handover"
  | "commands"
  | "record"
  | "upload";

const marks: [Phase, number][] = [];

export function mark(phase: Phase): void {
  marks.push([phase, performance.now()]);
}

export function printTimings(env: NodeJS.ProcessEnv): void {
  if (env.AGATE_TIMINGS !== "1") return;
  process.stderr.write(`agate-timings ${JSON.stringify(marks)}\n`);
}
