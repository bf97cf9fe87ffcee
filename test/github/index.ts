// The GitHub simulator's public surface for tests, benchmarks and the demo.
export { appClient, installationClient, tokenClient } from "./clients.js";
export type { CountedWrite, FaultEvent, FaultMode, FaultPlan, WriteFaults } from "./faults.js";
export { statefulOperations } from "./handlers/index.js";
export { type Received, type Receiver, startReceiver } from "./receiver.js";
export type { CallRecord, HandledBy, WriteRecord, WriteRequest } from "./server.js";
export {
  type GitHubSimulator,
  type SimArtifact,
  type SimJob,
  type SimPull,
  type SimulatorOptions,
  startGitHubSimulator,
  type Who,
} from "./simulator.js";
export type { Delivery } from "./webhooks.js";
