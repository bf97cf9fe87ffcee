/**
 * The reviews the read plan asks for (checks/gate/reads.ts): each reviewer's latest decisive
 * review, its reviewer read as a maintainer or not (write access or a listed maintainer or team
 * member; never the author, never a bot).
 */
import { decisiveReviews } from "../../../checks/gate/reads.js";
import type { PullRequestSnapshot, ReviewVerdictFact } from "../../../schemas/gate.js";
import type { GitHubAdapter } from "../../github/adapter.js";
import { isMaintainer } from "../../github/maintainers.js";

export async function latestReviews(
  github: GitHubAdapter,
  pr: PullRequestSnapshot,
  maintainers: string[],
): Promise<ReviewVerdictFact[]> {
  const verdicts: ReviewVerdictFact[] = [];
  for (const { verdict, user, askMaintainer } of decisiveReviews(
    await github.reviews(pr.number),
    pr.author.login,
  )) {
    // The author's, or a bot's (by GitHub's account type), review is never a maintainer's: an
    // agent must not approve its own work.
    const maintainer = askMaintainer && (await isMaintainer(github, user, maintainers));
    verdicts.push({ ...verdict, maintainer });
  }
  return verdicts;
}
