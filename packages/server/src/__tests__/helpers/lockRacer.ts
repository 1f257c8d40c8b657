/**
 * One contender in the DATA_DIR lock race (datadir-lock.test.ts), run as its own process:
 * `node --import tsx lockRacer.ts <dbDir>`. Prints `ready` once loaded, then reads the common
 * start instant (ms) from stdin, waits for it, tries the lock and prints `got` or `busy`. What it
 * got it holds until its stdin ends (the test ends it once every contender has answered), then
 * exits, which releases it.
 */
import { createInterface } from 'node:readline';
import { acquireDataDirLock, DataDirBusyError } from '../../db/lock.js';

const [dbDir] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin });
lines.once('line', (startAt) => {
  while (Date.now() < Number(startAt)) {
    // spin: every contender leaves at the same millisecond
  }
  try {
    acquireDataDirLock(dbDir!, 'racer');
    console.log('got');
    // Held until the test ends stdin; exiting releases it.
    lines.once('close', () => process.exit(0));
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    console.log('busy');
    lines.close();
  }
});
console.log('ready');
