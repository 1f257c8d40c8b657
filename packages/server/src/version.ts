/** The server's version, reported by /env and the OpenAPI document. */
export const SERVER_VERSION = '0.1.0';
