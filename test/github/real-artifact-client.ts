// Runs the real @actions/artifact client (DefaultArtifactClient) in a child process with a job's
// environment, as a JavaScript action would: it reads ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL
// and GITHUB_SERVER_URL from process.env, so it cannot run inside the test process. Asynchronous,
// because the simulator in this process has to answer it.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");

const SCRIPT = `
import { DefaultArtifactClient } from "@actions/artifact";
const client = new DefaultArtifactClient();
const op = JSON.parse(process.env.AGATE_OP);
try {
  let result;
  if (op.kind === "upload") result = await client.uploadArtifact(op.name, op.files, op.root);
  else if (op.kind === "list") result = await client.listArtifacts({ latest: op.latest ?? false });
  else if (op.kind === "download") result = await client.downloadArtifact(op.id, { path: op.path });
  else if (op.kind === "delete") result = await client.deleteArtifact(op.name);
  process.stdout.write("\\nAGATE_RESULT " + JSON.stringify(result) + "\\n");
} catch (error) {
  process.stdout.write("\\nAGATE_ERROR " + JSON.stringify(String(error?.message ?? error)) + "\\n");
}
`;

export type ClientOp =
  | { kind: "upload"; name: string; files: string[]; root: string }
  | { kind: "list"; latest?: boolean }
  | { kind: "download"; id: number; path: string }
  | { kind: "delete"; name: string };

export interface ClientResult {
  result?: unknown;
  error?: string;
  stdout: string;
}

export async function runArtifactClient(
  env: Record<string, string>,
  op: ClientOp,
): Promise<ClientResult> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", SCRIPT], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env, AGATE_OP: JSON.stringify(op) },
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  await new Promise<void>((done, fail) => {
    child.once("error", fail);
    child.once("close", () => done());
  });
  const result = /^AGATE_RESULT (.*)$/m.exec(stdout)?.[1];
  const error = /^AGATE_ERROR (.*)$/m.exec(stdout)?.[1];
  return {
    ...(result !== undefined ? { result: JSON.parse(result) } : {}),
    ...(error !== undefined ? { error: JSON.parse(error) as string } : {}),
    stdout,
  };
}
