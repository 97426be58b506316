/**
 * The embedded database is files that only one process may open. The server holds a lock
 * file in DATA_DIR while it runs, so that another process (a second server, the CLI) learns
 * it must go through the running server instead of opening the files and corrupting them.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DataDirLock {
  release(): void;
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'server.lock');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the live process holding the data directory, or null. */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockPath(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return {
        release() {
          try {
            if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dataDir);
      if (holder !== null) {
        throw new DataDirBusyError(`the embedded database in ${dataDir} is in use by process ${holder}`);
      }
      fs.rmSync(file, { force: true }); // left by a process that died: take it over
    }
  }
  throw new DataDirBusyError(`could not lock ${dataDir}`);
}
