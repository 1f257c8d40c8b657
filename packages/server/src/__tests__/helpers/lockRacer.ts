/**
 * One contender in the DATA_DIR lock race (datadir-lock.test.ts), run as its own process:
 * `node --import tsx lockRacer.ts <dbDir> <startAt ms> <holdMs>`. Waits for the common start
 * instant, tries the lock, prints `got` or `busy`, holds what it got for holdMs, then exits.
 */
import { acquireDataDirLock, DataDirBusyError } from '../../db/lock.js';

const [dbDir, startAt, holdMs] = process.argv.slice(2);
while (Date.now() < Number(startAt)) {
  // spin: every contender leaves at the same millisecond
}
try {
  acquireDataDirLock(dbDir!, 'racer');
  console.log('got');
  // Exiting releases it.
  setTimeout(() => process.exit(0), Number(holdMs));
} catch (error) {
  if (!(error instanceof DataDirBusyError)) throw error;
  console.log('busy');
}
