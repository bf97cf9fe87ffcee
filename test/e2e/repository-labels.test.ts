import { describe, expect, it } from "vitest";
import { AGATE_LABELS } from "../../checks/labels.js";
import { installationClient } from "../github/clients.js";
import { useGateHarness } from "../support/gate-harness.js";

/**
 * The App installed on a repository makes agate's labels there, each with its look, through the
 * real route (`installation_repositories.added`) and the simulator's label endpoints; a gate pass
 * after it adds its state label without a call to style it.
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

    await gate.sim.addToInstallation({ repos: [repo] });
    await gate.processDeliveries();
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
});
