import { describe, expect, it } from "vitest";
import { agateRoute } from "../../app/compose.js";
import { AGATE_LABELS } from "../../checks/labels.js";
import { CONFIG_PATH } from "../../schemas/config.js";
import { installationClient } from "../github/clients.js";
import type { CallRecord } from "../github/server.js";
import { ANSWER_CONFIG, EVIDENCE_WORKFLOW_TEXT, useGateHarness } from "../support/gate-harness.js";
import { testConfig } from "../support/runner-users.js";

/**
 * The App installed on a repository that has agate's config makes agate's labels there, each with
 * its look, through the real route (`installation_repositories.added`) and the simulator's label
 * endpoints; a gate pass after it adds its state label without a call to style it. A repository
 * without the config costs one read and gets nothing written.
 */
const gate = useGateHarness();

async function labelsOf(repo: string) {
  const octokit = installationClient(gate.sim);
  const labels = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, {
    owner: gate.sim.owner,
    repo,
    per_page: 100,
  });
  return new Map(labels.map((l) => [l.name.toLowerCase(), l]));
}

/** The calls (or writes) the simulator logged for one repository, as operation and status. */
function callsOn(repo: string, log: readonly CallRecord[]) {
  const prefix = `/repos/${gate.sim.owner}/${repo}/`;
  return log
    .filter((c) => c.path.replace(/^\/api\/v3/, "").startsWith(prefix))
    .map((c) => `${c.operationId} ${c.status}`);
}

describe("agate's labels on installation", () => {
  it("are made with their look; a label that exists is restyled and renamed, not duplicated; a second event changes nothing", async () => {
    const repo = "installed";
    const { head, branch, number } = await gate.agentPullRequest(repo, { "answer.txt": "42\n" });
    const octokit = installationClient(gate.sim);
    // Someone made one before, with GitHub's grey and another spelling.
    await octokit.rest.issues.createLabel({
      owner: gate.sim.owner,
      repo,
      name: "Agate:Blocked",
      color: "ededed",
    });

    gate.sim.clearCalls();
    await gate.sim.addToInstallation({ repos: [repo] });
    await gate.processDeliveries();
    // The config read on the default branch first, then the labels: listed once, the ten missing
    // ones created, the other spelling renamed.
    const install = callsOn(repo, gate.sim.callLog);
    expect(install[0]).toBe("repos/get-content 200");
    expect(install.slice(1).sort()).toEqual(
      [
        "issues/list-labels-for-repo 200",
        "issues/update-label 200",
        ...Array(Object.keys(AGATE_LABELS).length - 1).fill("issues/create-label 201"),
      ].sort(),
    );
    const made = await labelsOf(repo);
    for (const [name, style] of Object.entries(AGATE_LABELS)) {
      expect(made.get(name), name).toMatchObject({
        color: style.color,
        description: style.description,
      });
    }
    // Renamed to agate's spelling, so the gate's comparisons of names agree.
    expect(made.get("agate:blocked")?.name).toBe("agate:blocked");
    expect([...made.keys()].filter((n) => n.startsWith("agate:"))).toHaveLength(
      Object.keys(AGATE_LABELS).length,
    );

    const calls = () => ({
      create: gate.sim.calls["issues/create-label"] ?? 0,
      style: gate.sim.calls["issues/update-label"] ?? 0,
    });
    const before = calls();
    await gate.sim.addToInstallation({ repos: [repo] });
    await gate.processDeliveries();
    expect(calls()).toEqual(before);

    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:accepted");
    // The label was there with its look: adding it cost no styling call.
    expect(calls()).toEqual(before);
  });

  it("are made only where .github/agate.yml is on the default branch: elsewhere one read, no write; a config committed later gets each label when the gate first needs it", async () => {
    const owner = gate.sim.owner;
    const gatedFiles = {
      [CONFIG_PATH]: testConfig(ANSWER_CONFIG),
      "answer.txt": "0\n",
      ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT,
    };
    // Neither default branch is main. The second repository has the config only on a branch main
    // that is not its default: what counts is the default branch, where pull requests go.
    await gate.sim.createRepository({ repo: "gated", defaultBranch: "trunk", files: gatedFiles });
    await gate.sim.createRepository({
      repo: "ungated",
      defaultBranch: "trunk",
      files: { "README.md": "# not gated\n" },
    });
    await gate.sim.pushCommit({ repo: "ungated", branch: "main", files: gatedFiles });
    await gate.processDeliveries();
    gate.sim.clearCalls();

    // One event names both; each job's log line says what it did.
    await gate.sim.addToInstallation({ repos: ["gated", "ungated"] });
    const lines: string[] = [];
    for (const d of await gate.takePending()) {
      for (const job of agateRoute(d.event, d.payload, d.id)) {
        lines.push(await gate.run(job));
      }
    }
    const count = Object.keys(AGATE_LABELS).length;
    expect(lines).toEqual([
      `${owner}/gated labels after installation_repositories.added: ${count} created, 0 restyled (${count + 2} GitHub calls: repos/get-content, issues/list-labels-for-repo, issues/create-label×${count})`,
      `${owner}/ungated labels after installation_repositories.added: no ${CONFIG_PATH} on the default branch, none made; agate makes each the first time it needs it (1 GitHub calls: repos/get-content)`,
    ]);
    // What GitHub saw: for the repository without the config, its one read (not found) and no
    // write at all; for the one with it, the read, the list and a label each.
    expect(callsOn("ungated", gate.sim.callLog)).toEqual(["repos/get-content 404"]);
    expect(callsOn("ungated", gate.sim.writes)).toEqual([]);
    expect(callsOn("gated", gate.sim.callLog)).toEqual([
      "repos/get-content 200",
      "issues/list-labels-for-repo 200",
      ...Array(count).fill("issues/create-label 201"),
    ]);
    expect(callsOn("gated", gate.sim.writes)).toHaveLength(count);
    expect([...(await labelsOf("gated")).keys()].filter((n) => n.startsWith("agate:"))).toEqual(
      Object.keys(AGATE_LABELS),
    );
    expect([...(await labelsOf("ungated")).keys()].filter((n) => n.startsWith("agate:"))).toEqual(
      [],
    );

    // The config reaches the default branch later: the gate makes its label on first use, with
    // agate's look (one styling call, as for a repository created after the installation).
    await gate.sim.pushCommit({ repo: "ungated", branch: "trunk", files: gatedFiles });
    const branch = "codex/answer";
    const head = await gate.agentPush("ungated", branch, { "answer.txt": "42\n" });
    const { number } = await gate.sim.openPullRequest({
      repo: "ungated",
      head: branch,
      title: "Answer",
      user: "codex[bot]",
    });
    await gate.processDeliveries();
    await gate.ci("ungated", branch, head);
    expect(gate.gateCheck("ungated", head)).toMatchObject({ conclusion: "success" });
    expect(gate.sim.labelsOf({ repo: "ungated", number })).toContain("agate:accepted");
    const accepted = AGATE_LABELS["agate:accepted"];
    expect((await labelsOf("ungated")).get("agate:accepted")).toMatchObject({
      name: "agate:accepted",
      color: accepted.color,
      description: accepted.description,
    });
    expect(gate.sim.calls["issues/update-label"]).toBe(1);
  });
});
