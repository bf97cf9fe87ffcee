/**
 * The runner's side of an Action, written here rather than imported from @actions/core: that
 * package loads @actions/http-client and undici (~840 KB of the bundle, parsed at every start)
 * for OIDC tokens agate never asks for. The protocol is GitHub's documented one: inputs in
 * `INPUT_<NAME>`, workflow commands on stdout (`::warning file=..::message`), outputs and the
 * job summary in the files the runner names (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY).
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { EOL } from "node:os";

export interface AnnotationProperties {
  title?: string;
  file?: string;
  startLine?: number;
  startColumn?: number;
}

/** What a workflow command's message may not contain raw: %, CR and LF. */
const escapeData = (text: string) =>
  text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

/** A property value also may not contain `:` or `,`, which delimit properties. */
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");

function command(name: string, properties: Record<string, unknown>, message: string): void {
  const props = Object.entries(properties)
    // As @actions/core: a property whose value is empty (or 0) is left out.
    .filter(([, value]) => Boolean(value))
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(",");
  process.stdout.write(`::${name}${props ? ` ${props}` : ""}::${escapeData(message)}${EOL}`);
}

const annotation = (properties: AnnotationProperties = {}) => ({
  title: properties.title,
  file: properties.file,
  line: properties.startLine,
  col: properties.startColumn,
});

/** An input as the runner passes it: `INPUT_` and the name upper-cased, spaces as `_`; trimmed. */
export function getInput(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}

export const info = (message: string): void => {
  process.stdout.write(`${message}${EOL}`);
};
export const warning = (message: string, properties?: AnnotationProperties): void =>
  command("warning", annotation(properties), message);
export const error = (message: string, properties?: AnnotationProperties): void =>
  command("error", annotation(properties), message);
export const startGroup = (name: string): void => command("group", {}, name);
export const endGroup = (): void => command("endgroup", {}, "");

/** Fails the step: exit code 1 when the process ends, and the message as an error annotation. */
export function setFailed(message: string): void {
  process.exitCode = 1;
  error(message);
}

/**
 * Sets a step output: a heredoc in GITHUB_OUTPUT with a delimiter nobody can guess (so a value
 * cannot end it early and add outputs of its own); without that file, the old stdout command.
 */
export function setOutput(name: string, value: unknown, env: NodeJS.ProcessEnv = process.env) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const file = env.GITHUB_OUTPUT;
  if (!file) {
    process.stdout.write(EOL);
    command("set-output", { name }, text);
    return;
  }
  if (!existsSync(file)) throw new Error(`Missing file at path: ${file}`);
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || text.includes(delimiter)) {
    throw new Error(`Unexpected input: the output ${name} contains the delimiter ${delimiter}`);
  }
  appendFileSync(file, `${name}<<${delimiter}${EOL}${text}${EOL}${delimiter}${EOL}`, "utf8");
}

/** Writes the job summary (the whole of it) to GITHUB_STEP_SUMMARY. */
export function writeSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  if (!existsSync(file)) {
    throw new Error(
      `Unable to access summary file: '${file}'. Check if the file has correct read/write permissions.`,
    );
  }
  writeFileSync(file, markdown, "utf8");
}
