// The local stand-ins for AWS and Slack (and the tests' proxies) each serve HTTP on a free
// loopback port: one way to open it and to close it.
import type { Server } from 'http';

export interface LocalListener {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Stops the server, cutting kept-alive connections so it closes at once. */
  close(): Promise<void>;
}

export async function listenLocal(server: Server): Promise<LocalListener> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
