import type { CommandRecord } from "../schemas/command-record.js";

/** Characters a string takes inside JSON, without its quotes. */
const jsonCost = (text: string) => JSON.stringify(text).length - 2;

/** The longest end of `text` whose JSON form takes at most `budget` characters. */
function endWithin(text: string, budget: number): string {
  let cost = 0;
  let start = text.length;
  while (start > 0) {
    const next = jsonCost(text.slice(start - 1, start));
    if (cost + next > budget) break;
    cost += next;
    start--;
  }
  // Never split a surrogate pair: a lone low surrogate would not survive UTF-8.
  if (start < text.length && /[\uDC00-\uDFFF]/.test(text[start] ?? "")) start++;
  return text.slice(start);
}

/**
 * Shortens a command record until its JSON fits in `maxChars` (GitHub caps a check run's text at
 * 65,535 characters). Only output tails are shortened, keeping their ends (where failures are),
 * and fairly: every tail gets the same share unless it needs less. Each shortened tail is named
 * in `cut`, so the record stays valid and says what it lost; digests and byte counts always
 * describe the whole output.
 */
export function fitRecord(record: CommandRecord, maxChars: number): CommandRecord {
  const excess = JSON.stringify(record).length - maxChars;
  if (excess <= 0) return record;

  const costs = record.commands.map((command) => jsonCost(command.output.tail));
  const budget = costs.reduce((sum, cost) => sum + cost, 0) - excess;
  if (budget < 0) {
    throw new Error(
      `the command record needs ${-budget} more characters than ${maxChars} even with empty tails`,
    );
  }
  // Water-filling: the largest share such that tails cut to it fit in the budget together.
  const sorted = [...costs].sort((a, b) => a - b);
  let share = 0;
  let left = budget;
  for (let i = 0; i < sorted.length; i++) {
    const even = Math.floor(left / (sorted.length - i));
    const cost = sorted[i] ?? 0;
    if (cost > even) {
      share = even;
      break;
    }
    left -= cost;
    share = cost;
  }

  const cut = new Set(record.cut);
  const commands = record.commands.map((command, index) => {
    if ((costs[index] ?? 0) <= share) return command;
    cut.add(`commands[${index}].output.tail`);
    return {
      ...command,
      output: { ...command.output, tail: endWithin(command.output.tail, share), truncated: true },
    };
  });
  const fitted = { ...record, commands, cut: [...cut] };
  // `cut` itself takes room; a second pass gives it back from the tails.
  return JSON.stringify(fitted).length > maxChars ? fitRecord(fitted, maxChars) : fitted;
}
