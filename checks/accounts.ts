/**
 * Who an account is, by GitHub's word: its type (`User`, `Bot`, `Organization`, `Mannequin`),
 * never its login's text. A machine user an agent runs as can be typed `Bot` without a `[bot]`
 * suffix; an App's account always has one.
 */

/** An account as GitHub shows it: its login and type; a type GitHub did not say is null. */
export interface Account {
  login: string;
  type: string | null;
}

/**
 * Whether the account is a person's: only then can it approve, accept or decide as a
 * maintainer. A `[bot]` login is an App's whatever its type reads; anything but `User` is not a
 * person's, an unknown type included.
 */
export function isPerson(account: Account): boolean {
  return account.type === "User" && !account.login.toLowerCase().endsWith("[bot]");
}

/** Whether the account is a bot's (an App's, or one GitHub types `Bot`): for the words shown. */
export function isBot(account: Account): boolean {
  return account.type === "Bot" || account.login.toLowerCase().endsWith("[bot]");
}
