import "./young-generation.js";
import { run } from "./main.js";

await run();
