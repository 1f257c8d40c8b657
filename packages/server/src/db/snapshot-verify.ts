/**
 * Worker thread of verifySnapshot (db/snapshots.ts): opens a snapshot in a scratch in-memory
 * PGlite and counts the rows of the main tables. A thread of its own, because PGlite runs on the
 * thread that opens it: the server's requests go on meanwhile.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openEmbedded } from './embedded.js';
import { COUNTED_TABLES, type RowCounts } from './snapshots.js';

async function verify(file: string): Promise<RowCounts> {
  const embedded = await openEmbedded('memory://', {
    owner: 'snapshot verification',
    loadDataDir: new Blob([await fs.readFile(file)]),
  });
  try {
    const counts = {} as RowCounts;
    for (const table of COUNTED_TABLES) {
      const { rows } = await embedded.client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table}`,
      );
      counts[table] = Number(rows[0]!.n);
    }
    return counts;
  } finally {
    await embedded.close();
  }
}

// This thread only (on Linux a nice value is a thread's): the server's thread, which runs its
// PGlite and its checkpoints, goes first when the two want the same core.
try {
  os.setPriority(10);
} catch {
  // Not allowed here: verify at the usual priority.
}

verify((workerData as { file: string }).file).then(
  (counts) => parentPort!.postMessage({ counts }),
  (error: unknown) => parentPort!.postMessage({ error: (error as Error).message ?? String(error) }),
);
