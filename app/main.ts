import { openStore } from "./store/open-store.js";

/**
 * `npm start`. The Probot App that decides the `agate` check is not in this version yet; what
 * exists is its durable store, so this opens (and migrates) it and says so plainly.
 */
const store = await openStore();
await store.close();
console.log(
  `agate App: the store at ${process.env.AGATE_DATABASE_URL ?? "file:./agate.db"} is migrated and ready. ` +
    "The webhook handlers and the agate gate check are not in this version yet; `npm run demo` shows the Action and the GitHub simulator.",
);
