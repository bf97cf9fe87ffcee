import { type CommandRecord, commandRecordSchema } from "../schemas/command-record.js";
import { fitRecord } from "./fit-record.js";

const OPEN = "```json\n";
const CLOSE = "\n```";

/** The command record as the text of the `agate/commands` check run, within `maxChars`. */
export function embedRecord(record: CommandRecord, maxChars: number): string {
  const fitted = fitRecord(record, maxChars - OPEN.length - CLOSE.length);
  return `${OPEN}${JSON.stringify(fitted)}${CLOSE}`;
}

/**
 * Reads a record back from a check run's text. Anything that is not exactly one embedded,
 * schema-valid record is refused with the reason; the caller stores the reason.
 */
export function extractRecord(
  text: string | null | undefined,
): { ok: true; record: CommandRecord } | { ok: false; reason: string } {
  if (!text?.startsWith(OPEN) || !text.endsWith(CLOSE)) {
    return { ok: false, reason: "the check run's text is not an embedded agate command record" };
  }
  let json: unknown;
  try {
    json = JSON.parse(text.slice(OPEN.length, -CLOSE.length));
  } catch (error) {
    return { ok: false, reason: `the embedded record is not JSON: ${(error as Error).message}` };
  }
  const parsed = commandRecordSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      ok: false,
      reason: `the embedded record is not a valid command record: ${first?.path.join(".") || "(root)"}: ${first?.message}`,
    };
  }
  return { ok: true, record: parsed.data };
}
