import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A loopback port nothing listens on (bound, then closed): a request to it gets no answer. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}
