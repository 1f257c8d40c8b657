import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** True once close() has begun: the server drains and takes no new connections. */
    isClosing: () => boolean;
  }
}

/**
 * The drain half of a graceful stop (main.ts has the signal half, docs/operations.md). Once
 * `app.close()` begins, Fastify stops listening and closes idle keep-alive connections; requests
 * already in flight, and any that still arrive on an open connection, are answered normally
 * (`return503OnClosing: false` in app.ts), each with `Connection: close`, so every connection ends
 * after its answer and the close completes without waiting for keep-alive timeouts. Only then do
 * the onClose hooks stop the outbox worker (after its batch) and close the database.
 */
export const shutdownPlugin = fp(async (app: FastifyInstance) => {
  let closing = false;
  app.decorate('isClosing', () => closing);
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
});
