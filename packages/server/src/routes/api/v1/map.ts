import type { FastifyInstance } from 'fastify';

/** `GET map`: clusters and points. (Being written: the map part of the catalogue issue.) */
export async function mapRoutes(_app: FastifyInstance) {}
