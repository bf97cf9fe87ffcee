import { describe, expect, it } from "vitest";
import { useSqliteStore } from "../../test/support/sqlite-store.js";
import type { IssueCommentFact } from "../github/adapter.js";
import { jobScope, onceMarker, WriteOnce, type WriteOnceGitHub } from "./write-once.js";

const APP = "agate[bot]";

/** One issue's comments; `comment` posts as the App, `failAfterPost` loses the next answer. */
function fakeGitHub() {
  const comments: IssueCommentFact[] = [];
  let lose = false;
  const github: WriteOnceGitHub & { posts: number } = {
    owner: "octo",
    repo: "widgets",
    appLogin: APP,
    posts: 0,
    async comment(_number, body) {
      github.posts++;
      const id = 1000 + comments.length;
      comments.push({
        id,
        body,
        login: APP,
        created_at: "2025-01-01T00:00:00Z",
        updated_at: "2025-01-01T00:00:00Z",
        edited: false,
        user_type: "Bot",
      });
      if (lose) {
        lose = false;
        throw new Error("socket hang up");
      }
      return id;
    },
    async issueComments() {
      return [...comments];
    },
  };
  return {
    github,
    comments,
    loseNextAnswer: () => {
      lose = true;
    },
  };
}

describe("WriteOnce", () => {
  const store = useSqliteStore();

  it("posts a comment once per key, with its marker; the same key again posts nothing", async () => {
    const { github, comments } = fakeGitHub();
    const writes = new WriteOnce(github, store(), jobScope(7, "gate"));
    expect(await writes.comment("reply:c1", 12, "Accepted.")).toBe("posted");
    expect(await writes.comment("reply:c1", 12, "Accepted, said again.")).toBe("done");
    expect(comments).toHaveLength(1);
    // Recording the key again returns the first intent, completed with GitHub's id.
    const { intent, created } = await store().recordWriteIntent(intentOf("reply:c1"));
    expect(created).toBe(false);
    expect(comments[0]?.body).toBe(`Accepted.\n\n${onceMarker(intent.marker)}`);
    expect(intent.github_id).toBe(comments[0]?.id);
  });

  it("after a lost answer, the retry finds the comment by its marker and posts none", async () => {
    const { github, comments, loseNextAnswer } = fakeGitHub();
    loseNextAnswer();
    await expect(
      new WriteOnce(github, store(), jobScope(7, "gate")).comment("reply:c1", 12, "Accepted."),
    ).rejects.toThrow("socket hang up");
    const retry = new WriteOnce(github, store(), jobScope(7, "gate"));
    expect(await retry.comment("reply:c1", 12, "Accepted.")).toBe("found");
    expect(comments).toHaveLength(1);
    expect(await store().listPendingWriteIntents({ scope: "job:7:gate" })).toEqual([]);
  });

  it("a marker someone else copied into their comment is not the App's write: it is posted", async () => {
    const { github, comments } = fakeGitHub();
    const first = new WriteOnce(github, store(), jobScope(7, "gate"));
    // Recorded, then the run died before sending; meanwhile a stranger posts the marker.
    const intended = await first.intend("reply:c1", 12, "Accepted.");
    comments.push({
      id: 5,
      body: `nothing to see ${onceMarker(intended.intent.marker)}`,
      login: "mallory",
      created_at: "2025-01-01T00:00:00Z",
      updated_at: "2025-01-01T00:00:00Z",
      edited: false,
      user_type: "User",
    });
    const retry = new WriteOnce(github, store(), jobScope(7, "gate"));
    expect(await retry.finish()).toBe(1);
    expect(comments.filter((c) => c.login === APP).map((c) => c.body.split("\n")[0])).toEqual([
      "Accepted.",
    ]);
  });

  it("a retry finishes what its first run recorded and did not post, in its own scope only", async () => {
    const { github, comments } = fakeGitHub();
    const first = new WriteOnce(github, store(), jobScope(7, "gate"));
    await first.intend("job:7:gate:comment:0", 12, "The label is put back.");
    await new WriteOnce(github, store(), jobScope(8, "gate")).intend("other", 12, "Another job's.");
    // The retry decides nothing to say (the label is right by now) and finishes the first run's.
    const retry = new WriteOnce(github, store(), jobScope(7, "gate"));
    expect(await retry.finish()).toBe(1);
    expect(await retry.finish()).toBe(0);
    expect(comments.map((c) => c.body.split("\n")[0])).toEqual(["The label is put back."]);
    expect(github.posts).toBe(1);
  });

  it("a retry lists a target's comments once for all it finishes, and where given, through the caller's reader", async () => {
    const { github, comments, loseNextAnswer } = fakeGitHub();
    const first = new WriteOnce(github, store(), jobScope(7, "gate"));
    loseNextAnswer();
    await expect(first.comment("job:7:gate:comment:0", 12, "First.")).rejects.toThrow();
    await first.intend("job:7:gate:comment:1", 12, "Second.");
    await first.intend("job:7:gate:comment:2", 12, "Third.");
    let lists = 0;
    const counted = {
      ...github,
      issueComments: async () => {
        lists++;
        return [...comments];
      },
    };
    expect(await new WriteOnce(counted, store(), jobScope(7, "gate")).finish()).toBe(3);
    expect(lists).toBe(1);
    expect(comments.map((c) => c.body.split("\n")[0])).toEqual(["First.", "Second.", "Third."]);

    await new WriteOnce(github, store(), jobScope(9, "gate")).intend("job:9:a", 12, "Fourth.");
    let own = 0;
    const reader = async () => {
      own++;
      return [...comments];
    };
    const retry = new WriteOnce(counted, store(), jobScope(9, "gate"), reader);
    expect(await retry.finish()).toBe(1);
    expect([lists, own]).toEqual([1, 1]);
  });
});

function intentOf(key: string) {
  return {
    key,
    scope: "job:7:gate",
    repository: "octo/widgets",
    target: 12,
    kind: "comment" as const,
    body: "unused",
    marker: "f".repeat(16),
  };
}
