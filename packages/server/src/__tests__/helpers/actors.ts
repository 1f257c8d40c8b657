import type { AccountType } from '@poruch/core';
import { accounts } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { TestClient } from './client.js';
import { registration } from './fixtures.js';
import type { TestServer } from './server.js';

let n = 0;
const PASSWORD = 'test password 123';
let passwordHash: Promise<string> | undefined;

/** A logged-in browser of a new account of the given type, created directly in the database. */
export async function loggedIn(
  server: TestServer,
  type: AccountType,
  options: { isSuper?: boolean } = {},
): Promise<{ client: TestClient; id: string; email: string }> {
  const email = `${type.toLowerCase()}${++n}-${Date.now()}@example.org`;
  passwordHash ??= hashPassword(PASSWORD);
  const [row] = await server.database.db
    .insert(accounts)
    .values({
      email,
      passwordHash: await passwordHash,
      type,
      isSuper: options.isSuper ?? false,
      firstName: type,
    })
    .returning();
  const client = new TestClient(server.url);
  await client.init();
  const res = await client.post('/api/v1/auth/login', { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return { client, id: row!.id, email };
}

/** A partner registered over HTTP, with the first service's id. */
export async function partner(server: TestServer) {
  const client = new TestClient(server.url);
  await client.init();
  const body = registration();
  const res = await client.post('/api/v1/auth/register', body);
  if (res.status !== 201) throw new Error(`registration failed: ${JSON.stringify(res.body)}`);
  return {
    client,
    id: res.body.account.id as string,
    serviceId: res.body.service.id as string,
    body,
  };
}
