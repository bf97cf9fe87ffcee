// Every operation the simulator answers from state, by GitHub operation id.
import { actionOperations } from "./actions.js";
import { appOperations } from "./apps.js";
import { checkOperations } from "./checks.js";
import type { OperationTable } from "./context.js";
import { issueOperations } from "./issues.js";
import { orgOperations } from "./orgs.js";
import { pullOperations } from "./pulls.js";
import { repoOperations } from "./repos.js";

export const statefulOperations: OperationTable = {
  ...appOperations,
  ...repoOperations,
  ...pullOperations,
  ...checkOperations,
  ...issueOperations,
  ...actionOperations,
  ...orgOperations,
};
