/**
 * npm run demo — the foundation and the Action, end to end, on the embedded default: a SQLite
 * file, the GitHub simulator, real git, the built Action bundle. No network, no credentials.
 * It prints each step and exits 0 only when every step came out as expected.
 *
 * The webhook receiver here is the demo's own: it verifies each signature and records the
 * delivery with its job in the store, in one transaction, as the App's webhook path will. The
 * App that works those jobs and writes the `agate` gate check is not in this version yet.
 */

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { verify } from "@octokit/webhooks-methods";
import { COMMANDS_CHECK_NAME } from "../action/github.js";
import { openStore } from "../app/store/open-store.js";
import { extractRecord } from "../checks/record-embedding.js";
import { startGitHubSimulator } from "../test/github/index.js";
import { runActionBundle } from "../test/support/action-runner.js";
import { GIT_ENV } from "../test/support/git-repo.js";

// Its own file, never AGATE_DATABASE_URL: the demo starts by deleting it.
const DATABASE = resolve("agate-demo.db");
const REPO = "widgets";
const failures: string[] = [];

function step(title: string) {
  console.log(`\n▶ ${title}`);
}
function expectThat(ok: boolean, what: string) {
  console.log(`  ${ok ? "✓" : "✗"} ${what}`);
  if (!ok) failures.push(what);
}
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();

for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DATABASE}${suffix}`, { force: true });
const store = await openStore({ url: `file:${DATABASE}` });
const secret = "demo-webhook-secret";

// The webhook path: verify, record the delivery and its job in one transaction, answer.
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", async () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const signature = String(req.headers["x-hub-signature-256"] ?? "");
    if (!(await verify(secret, body, signature).catch(() => false))) {
      res.writeHead(401).end("bad signature");
      return;
    }
    const id = String(req.headers["x-github-delivery"]);
    const event = String(req.headers["x-github-event"]);
    const action = (JSON.parse(body) as { action?: string }).action ?? null;
    const result = await store.recordDelivery({
      delivery: {
        id,
        event,
        action,
        payload_sha256: createHash("sha256").update(body).digest("hex"),
        received_at: new Date().toISOString(),
      },
      payload: body,
      jobs: [{ kind: `webhook.${event}`, payload: { delivery_id: id } }],
    });
    res.writeHead(result.status === "conflict" ? 409 : 202).end(result.status);
  });
});
await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", done));
const address = receiver.address();
const receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;

step(
  "Start the GitHub simulator (validates every request and response against GitHub's OpenAPI description)",
);
const sim = await startGitHubSimulator({ webhookSecret: secret, webhookUrl: receiverUrl });
console.log(`  API at ${sim.apiUrl}; store at ${DATABASE}`);

const config = [
  "version: 1",
  "commands:",
  "  - name: unit tests",
  '    run: test "$(cat src/answer.txt)" = 42 || { echo "expected 42, got $(cat src/answer.txt)"; exit 1; }',
  "  - name: no TODOs",
  '    run: "! grep -rn TODO src"',
  "",
].join("\n");

step("A repository that adopted agate: .github/agate.yml on main");
await sim.createRepository({
  repo: REPO,
  files: { ".github/agate.yml": config, "src/answer.txt": "0\n" },
});
console.log(config.replace(/^/gm, "    "));

step("An agent pushes codex/answer with a wrong answer, and edits the config to skip the tests");
const sneaky = 'version: 1\ncommands:\n  - name: unit tests\n    run: "true"\n';
let head = await sim.pushCommit({
  repo: REPO,
  branch: "codex/answer",
  files: { "src/answer.txt": "41\n", ".github/agate.yml": sneaky },
  author: "codex[bot]",
  message: "Compute the answer",
});
const { number } = await sim.openPullRequest({
  repo: REPO,
  head: "codex/answer",
  title: "Compute the answer",
  user: "codex[bot]",
  labels: ["agent"],
});
await sim.flushWebhooks();
expectThat(
  (await store.listJobs({ status: "queued" })).length >= 1,
  "pull_request.opened was verified, stored and its job enqueued in agate-demo.db",
);

async function runCi(label: string) {
  const bare = sim.gitDir({ repo: REPO });
  const dir = mkdtempSync(join(tmpdir(), "agate-demo-checkout-"));
  git(dir, "clone", "--quiet", bare, ".");
  git(dir, "merge", "--quiet", "--no-ff", "-m", `Merge #${number}`, "origin/codex/answer");
  git(dir, "checkout", "--quiet", "--detach");
  const pulls = sim.deliveries.filter((d) => d.event === "pull_request");
  const event = pulls[pulls.length - 1]?.payload;
  const token = sim.createToken({ permissions: { checks: "write", contents: "read" } });
  console.log(
    `  CI (${label}): the Action runs on merge commit ${git(dir, "rev-parse", "--short", "HEAD")}`,
  );
  const run = await runActionBundle({
    cwd: dir,
    eventName: "pull_request",
    event,
    repository: `${sim.owner}/${REPO}`,
    inputs: { token },
    env: { GITHUB_API_URL: sim.apiUrl },
  });
  rmSync(dir, { recursive: true, force: true });
  await sim.flushWebhooks();
  const check = sim
    .checkRuns({ repo: REPO })
    .filter((c) => c.name === COMMANDS_CHECK_NAME && c.headSha === head)
    .at(-1);
  const extracted = extractRecord(check?.output?.text);
  console.log(
    `  step exit ${run.status}; check run ${COMMANDS_CHECK_NAME} on ${head.slice(0, 7)}: ${check?.conclusion} — ${check?.output?.title}`,
  );
  return { run, check, record: extracted.ok ? extracted.record : undefined };
}

step("CI runs the Action on the pull request");
const first = await runCi("first push");
expectThat(first.run.status === 1, "the step failed, because a required command failed");
expectThat(
  first.check?.conclusion === "failure",
  "agate/commands concluded failure, with the record embedded",
);
expectThat(
  first.record?.commands.map((c) => c.name).join(",") === "unit tests,no TODOs",
  "the base's two commands ran, not the head's edited config",
);
const failing = first.record?.commands.find((c) => c.exit_code !== 0);
console.log(`  failing tail of "${failing?.name}": ${failing?.output.tail.trim()}`);
expectThat(
  failing?.output.tail.includes("expected 42, got 41") ?? false,
  "the record carries the failing output's tail",
);

step("The agent pushes a fix");
head = await sim.pushCommit({
  repo: REPO,
  branch: "codex/answer",
  files: { "src/answer.txt": "42\n" },
  author: "codex[bot]",
  message: "Fix the answer",
});
await sim.flushWebhooks();
const second = await runCi("after the fix");
expectThat(
  second.run.status === 0 && second.check?.conclusion === "success",
  "every required command passed on the new head",
);
expectThat(
  second.record?.tested.parents[1] === head,
  "the record binds the new head as the merge commit's parent",
);
expectThat(
  Boolean(
    first.record &&
      second.record &&
      first.record.commands[0]?.output.normalized_sha256 !==
        second.record.commands[0]?.output.normalized_sha256,
  ),
  "the two attempts' outputs have different normalised digests",
);

step("GitHub redelivers a webhook: it is acknowledged and not enqueued twice");
const synchronize = sim.deliveries.find(
  (d) => d.event === "pull_request" && d.action === "synchronize",
);
const stored = synchronize ? await store.getDelivery(synchronize.id) : null;
const jobsBefore = (await store.listJobs()).length;
if (stored) {
  const { sign } = await import("@octokit/webhooks-methods");
  const response = await fetch(receiverUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-delivery": stored.id,
      "x-github-event": stored.event,
      "x-hub-signature-256": await sign(secret, stored.payload),
    },
    body: stored.payload,
  });
  expectThat(
    (await response.text()) === "duplicate",
    `delivery ${stored.id} was recognised as a duplicate`,
  );
}
expectThat((await store.listJobs()).length === jobsBefore, "no job was added for the redelivery");

step("What the store holds");
const deliveries = sim.deliveries.map((d) => `${d.event}${d.action ? `.${d.action}` : ""}`);
console.log(`  ${deliveries.length} deliveries: ${deliveries.join(", ")}`);
console.log(
  `  ${(await store.listJobs()).length} jobs queued for the App's workers (which arrive with the App)`,
);
console.log(
  `  GitHub API calls: ${Object.entries(sim.calls)
    .map(([op, n]) => `${op} ×${n}`)
    .join(", ")}`,
);

await sim.close();
await store.close();
receiver.close();

if (failures.length > 0) {
  console.log(
    `\n✗ demo: ${failures.length} step(s) did not come out as expected:\n  - ${failures.join("\n  - ")}`,
  );
  process.exit(1);
}
console.log(`\n✓ demo: every step came out as expected. The database is ${DATABASE}.`);
