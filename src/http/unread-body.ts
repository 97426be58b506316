/**
 * An answer sent before the request's body has all arrived: a 413 past the body
 * limit, a 401 or 403 decided before the body is read (`org/gate.plugin.ts`). The answer says
 * `Connection: close`, and the connection is closed only once the client has stopped sending,
 * or has sent the route's body limit again, or after `DRAIN_MS`: a socket closed with bytes
 * still coming is reset (TCP RST), and a client still writing its body then sees `EPIPE` or
 * `ECONNRESET` and never reads the answer waiting for it.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The longest a refused body is read (and dropped) after its answer. */
export const DRAIN_MS = 10_000;

const draining = new WeakSet<Socket>();

/**
 * Replaces Node's closing of `socket` after an answer with `Connection: close` (its
 * `destroySoon`, which resets a connection the client still writes on) by a half close: the
 * answer is complete (FIN), the bytes that still come are read and dropped (Node's parser
 * reads them into the dumped request), and the socket is destroyed once the client closes its
 * side, or past `maxBytes` more bytes or `maxMs`.
 */
export function closeAfterDraining(socket: Socket, maxBytes: number, maxMs = DRAIN_MS): void {
  if (draining.has(socket)) return;
  draining.add(socket);
  socket.destroySoon = function closeWhenDrained(this: Socket) {
    if (!this.writableEnded) this.end();
    const since = Date.now();
    const readAtEnd = this.bytesRead;
    const timer = setInterval(() => {
      if (this.destroyed) return clearInterval(timer);
      if (this.bytesRead - readAtEnd > maxBytes || Date.now() - since >= maxMs) {
        clearInterval(timer);
        this.destroy();
      }
    }, 25);
    this.once('close', () => clearInterval(timer));
  };
}

export default fp(
  async function unreadBody(fastify: FastifyInstance) {
    fastify.addHook('onSend', async (request, reply) => {
      // `complete` is Node's: false while the body is still arriving (light-my-request leaves it undefined).
      if (request.raw.complete !== false || !request.raw.socket) return;
      reply.header('connection', 'close');
      closeAfterDraining(request.raw.socket, Math.max(request.routeOptions.bodyLimit ?? 0, 1024 * 1024));
    });
  },
  { name: 'unread-body' },
);
