import type { FastifyInstance } from 'fastify';
import type { Env } from '../../../env.js';

/** `GET geocode`: address to candidates. (Being written: the geocoding part of the catalogue issue.) */
export async function geocodeRoutes(_app: FastifyInstance, _opts: { env: Env }) {}
