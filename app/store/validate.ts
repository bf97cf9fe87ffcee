/** Zod at the store's two edges: what callers hand in, and what rows read back as. */
import { type ZodType, z } from "zod";
import { appendOnceSchema } from "../../schemas/store.js";
import { CorruptRowError, InvalidInputError } from "./errors.js";

export function parseInput<S extends ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInputError(what, z.prettifyError(result.error));
  return result.data;
}

/** parseInput for one schema, named `what` in its errors: a port's check of one argument. */
export function inputOf<S extends ZodType>(
  schema: S,
  what: string,
): (value: unknown) => z.output<S> {
  return (value) => parseInput(schema, value, what);
}

export function parseRow<S extends ZodType>(
  schema: S,
  value: unknown,
  table: string,
  key: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new CorruptRowError(table, key, z.prettifyError(result.error));
  return result.data;
}

/** JSON text for a column; null stays SQL NULL so `IS NULL` means what it says. */
export function toJsonColumn(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * A row read back by its id: the `json` columns parsed from their text, then the whole checked
 * against `schema`. CorruptRowError naming the table, the row and what is wrong otherwise.
 */
export function parseRowWithJson<S extends ZodType>(
  schema: S,
  row: Record<string, unknown>,
  table: string,
  json: readonly string[],
): z.output<S> {
  const key = `id ${String(row.id)}`;
  const value = { ...row };
  for (const column of json) value[column] = fromJsonColumn(row[column], table, key, column);
  return parseRow(schema, value, table, key);
}

function fromJsonColumn(text: unknown, table: string, key: string, column: string): unknown {
  if (text === null) return null;
  if (typeof text !== "string") {
    throw new CorruptRowError(table, key, `column ${column} is ${typeof text}, not JSON text`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CorruptRowError(table, key, `column ${column} is not valid JSON`, { cause: error });
  }
}

/**
 * Whether a job holds its dedupe key (the predicate of the jobs_dedupe unique index, migration
 * 7), for a jobs row aliased `alias`, or unqualified (as an index predicate is written) without.
 */
export function holdsDedupeKey(alias?: string): string {
  const c = alias ? `${alias}.` : "";
  return `(${c}status = 'queued' OR (${c}status = 'running' AND ${c}dedupe_until = 'finished'))`;
}

/** An append's conflict clause on the dedupe key's unique index: the new row's id, or no row. */
export const ON_DEDUPE_KEY =
  "ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id";

/** An append made once by its key: the new row's id, or the row the key wrote before. */
export type AppendedOnce =
  | { id: number; row?: undefined }
  | { id?: undefined; row: Record<string, unknown> };

/** An AppendOnce's key, checked; null for none. */
export function dedupeKeyOf(options: unknown): string | null {
  return parseInput(appendOnceSchema, options, "append options").dedupeKey ?? null;
}
