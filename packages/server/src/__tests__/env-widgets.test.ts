import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWidgetsBuild } from './helpers/builds.js';
import { TestClient } from './helpers/client.js';
import { rawGet } from './helpers/rawGet.js';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('GET /env: the widgets build served, for the embed builder', () => {
  let server: TestServer;
  let dir: string;
  const loader = 'import("./chunks/runtime-Xy_9abcd.js");\n';

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'poruch-env-widgets-'));
    await writeWidgetsBuild(dir, {
      version: '9.8.7',
      major: 'v9',
      files: { 'poruch.js': loader, 'chunks/runtime-Xy_9abcd.js': 'export {};' },
    });
    server = await startTestServer({}, undefined, { widgetsDir: dir });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("names the exact version's loader with the SRI hash of the bytes served there", async () => {
    const { widgets } = (await new TestClient(server.url).get('/env')).body;
    expect(widgets).toEqual({
      version: '9.8.7',
      loader: 'http://localhost:8080/widgets/9.8.7/poruch.js',
      integrity: expect.stringMatching(/^sha384-/),
    });
    const served = await rawGet(`${server.url}${new URL(widgets.loader).pathname}`, {
      'accept-encoding': 'identity',
    });
    expect(served.status).toBe(200);
    const hash = createHash('sha384').update(served.body).digest('base64');
    expect(widgets.integrity).toBe(`sha384-${hash}`);
  });
});
