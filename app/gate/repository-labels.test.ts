import { describe, expect, it } from "vitest";
import { AGATE_LABELS } from "../../checks/labels.js";
import { CONFIG_PATH } from "../../schemas/config.js";
import { GitHubAdapter, type GitHubClient } from "../github/adapter.js";
import { ensureRepositoryLabels } from "./repository-labels.js";

const LABEL_NAMES = Object.keys(AGATE_LABELS);

interface Label {
  name: string;
  color: string;
  description: string | null;
}

/**
 * One repository as the four REST operations the labels job uses see it, behind the real
 * adapter (so its call counts are the ones the job reports). A file read without `ref` is the
 * default branch's, as GitHub answers it; any other answer is an error status, as Octokit throws.
 */
function repository(options: {
  files?: Record<string, string>;
  labels?: Label[];
  contentStatus?: number;
}) {
  const labels = [...(options.labels ?? [])];
  const reads: Record<string, unknown>[] = [];
  const writes: { op: string; params: Record<string, unknown> }[] = [];
  const fail = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
  const client = {
    paginate: async (
      method: (p: Record<string, unknown>) => Promise<{ data: unknown[] }>,
      params: Record<string, unknown>,
    ) => (await method(params)).data,
    rest: {
      repos: {
        getContent: async (params: { path: string; ref?: string }) => {
          reads.push({ ...params });
          if (options.contentStatus) throw fail(options.contentStatus);
          const text = params.ref === undefined ? options.files?.[params.path] : undefined;
          if (text === undefined) throw fail(404);
          return {
            data: {
              type: "file",
              sha: "b".repeat(40),
              content: Buffer.from(text).toString("base64"),
            },
          };
        },
      },
      issues: {
        listLabelsForRepo: async () => ({ data: labels.map((l) => ({ ...l })) }),
        createLabel: async (params: Label) => {
          writes.push({ op: "create", params: { ...params } });
          if (labels.some((l) => l.name.toLowerCase() === params.name.toLowerCase())) {
            throw fail(422);
          }
          labels.push({ name: params.name, color: params.color, description: params.description });
        },
        updateLabel: async (params: Label & { new_name?: string }) => {
          writes.push({ op: "update", params: { ...params } });
          const label = labels.find((l) => l.name.toLowerCase() === params.name.toLowerCase());
          if (!label) throw fail(404);
          Object.assign(label, {
            name: params.new_name ?? label.name,
            color: params.color,
            description: params.description,
          });
        },
      },
    },
  };
  const github = new GitHubAdapter(client as unknown as GitHubClient, "octo/widgets", "agate");
  return { github, labels, reads, writes };
}

describe("ensureRepositoryLabels", () => {
  it("a repository without agate's config costs one read of its default branch and writes nothing", async () => {
    const repo = repository({ files: { "README.md": "# widgets\n" } });
    expect(await ensureRepositoryLabels(repo.github)).toEqual({ config: false });
    expect(Object.fromEntries(repo.github.calls)).toEqual({ "repos/get-content": 1 });
    expect(repo.github.totalCalls).toBe(1);
    // No ref: GitHub reads the default branch, whatever it is called.
    expect(repo.reads).toEqual([{ owner: "octo", repo: "widgets", path: CONFIG_PATH }]);
    expect(repo.writes).toEqual([]);
    expect(repo.labels).toEqual([]);
  });

  it("a repository with the config gets every label with its look: the read, the list and one create each", async () => {
    const repo = repository({ files: { [CONFIG_PATH]: "version: 1\n" } });
    const result = await ensureRepositoryLabels(repo.github);
    expect(result).toEqual({ config: true, created: LABEL_NAMES, styled: [] });
    expect(Object.fromEntries(repo.github.calls)).toEqual({
      "repos/get-content": 1,
      "issues/list-labels-for-repo": 1,
      "issues/create-label": LABEL_NAMES.length,
    });
    expect(repo.labels).toEqual(
      Object.entries(AGATE_LABELS).map(([name, style]) => ({ name, ...style })),
    );
  });

  it("an invalid config still gets the labels: its pull requests are gated (and blocked until it is fixed)", async () => {
    const repo = repository({ files: { [CONFIG_PATH]: "version: [not, a, config\n" } });
    const result = await ensureRepositoryLabels(repo.github);
    expect(result).toMatchObject({ config: true, created: LABEL_NAMES });
  });

  it("with the config, a label of another spelling is renamed and restyled, a right one left alone", async () => {
    const accepted = AGATE_LABELS["agate:accepted"];
    const repo = repository({
      files: { [CONFIG_PATH]: "version: 1\n" },
      labels: [
        { name: "agate:accepted", color: accepted.color, description: accepted.description },
        { name: "Agate:Blocked", color: "ededed", description: null },
      ],
    });
    const result = await ensureRepositoryLabels(repo.github);
    expect(result).toEqual({
      config: true,
      created: LABEL_NAMES.filter((n) => n !== "agate:accepted" && n !== "agate:blocked"),
      styled: ["agate:blocked"],
    });
    expect(repo.writes.filter((w) => w.op === "update")).toEqual([
      {
        op: "update",
        params: expect.objectContaining({ name: "Agate:Blocked", new_name: "agate:blocked" }),
      },
    ]);
    expect(repo.labels.map((l) => l.name).sort()).toEqual([...LABEL_NAMES].sort());
  });

  it("a read that fails for another reason than 404 throws before any write, so the job is retried", async () => {
    const repo = repository({ files: { [CONFIG_PATH]: "version: 1\n" }, contentStatus: 502 });
    await expect(ensureRepositoryLabels(repo.github)).rejects.toMatchObject({ status: 502 });
    expect(repo.writes).toEqual([]);
    expect(repo.github.totalCalls).toBe(1);
  });
});
