/**
 * A TCP proxy between the service and a server (PostgreSQL, SMTP) that a test can cut:
 * `down()` kills every open connection and refuses new ones, as a restart does from the
 * client's side; `up()` lets connections through again. The real server is never touched.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let accepting = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!accepting) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    down() {
      accepting = false;
      for (const socket of sockets) socket.destroy();
    },
    up() {
      accepting = true;
    },
    close() {
      accepting = false;
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
