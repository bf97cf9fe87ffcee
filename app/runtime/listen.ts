import type { Server } from "node:http";

/** Where a server really listens, in words and as a URL to reach it from this machine. */
export interface Bound {
  address: string;
  port: number;
  /** http://host:port, reachable from this machine (loopback when it listens everywhere). */
  url: string;
  /** "every interface (::), port 3000", or "127.0.0.1:3000". */
  where: string;
  everywhere: boolean;
}

/**
 * Listens on `port` and `host` (every interface when `host` is unset: Node's default) and says
 * where it really listens: a log line that shows 127.0.0.1 for a server that every interface
 * reaches misleads whoever decides what to expose.
 */
export function listenOn(server: Server, port: number, host: string | undefined): Promise<Bound> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `PORT ${port} is in use by another process: stop it, or set PORT to a free port (0 picks one)`,
              { cause: error },
            )
          : error,
      );
    });
    server.listen(port, host, () => {
      const bound = server.address();
      const address = typeof bound === "object" && bound ? bound.address : (host ?? "::");
      const actual = typeof bound === "object" && bound ? bound.port : port;
      resolve(describeBound(address, actual));
    });
  });
}

export function describeBound(address: string, port: number): Bound {
  const everywhere = address === "::" || address === "0.0.0.0";
  const reach = everywhere ? "127.0.0.1" : address;
  const host = reach.includes(":") ? `[${reach}]` : reach;
  return {
    address,
    port,
    url: `http://${host}:${port}`,
    where: everywhere ? `every interface (${address}), port ${port}` : `${host}:${port}`,
    everywhere,
  };
}
