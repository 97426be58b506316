/**
 * The embedded database is files that only one process may open. The process that opens
 * them (the server, or a command of the CLI when no server runs) holds a lock file
 * `DATA_DIR/server.lock` with its pid, so that another process learns it must not open them:
 * a second server refuses to start, the CLI sends its command to the running server.
 *
 * The lock is created atomically with its content (written aside, then hard-linked into
 * place), so nobody ever reads a half-written lock. A lock whose process is gone (a crash,
 * `kill -9`) is stale and taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files.ts';

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

function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The pid of the live process (other than this one) holding the data directory, or null. */
export function lockHolder(dataDir: string): number | null {
  const pid = readPid(lockPath(dataDir));
  return pid !== null && pid !== process.pid && isAlive(pid) ? pid : null;
}

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
}

function busy(dataDir: string, holder: number | string): DataDirBusyError {
  return new DataDirBusyError(
    `the embedded database in ${dataDir} is in use by process ${holder} (a running server or command): stop it, or use another DATA_DIR`,
  );
}

/** Creates the lock file with our pid in one step; false when it already exists. */
function tryCreate(file: string): boolean {
  const draft = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(draft, String(process.pid), { mode: PRIVATE_FILE_MODE });
  try {
    fs.linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/**
 * Moves a stale lock out of the way. Renaming is atomic: if another process replaced the
 * stale lock with its own meanwhile, we notice (a live pid) and put it back.
 */
function removeStale(file: string, dataDir: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const pid = readPid(aside);
  if (pid !== null && pid !== process.pid && isAlive(pid)) {
    try {
      fs.linkSync(aside, file);
    } finally {
      fs.rmSync(aside, { force: true });
    }
    throw busy(dataDir, pid);
  }
  fs.rmSync(aside, { force: true });
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  makePrivateDir(dataDir);
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(file)) {
      return {
        release() {
          if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
        },
      };
    }
    const holder = lockHolder(dataDir);
    if (holder !== null) throw busy(dataDir, holder);
    // Left by a process that died (or by an earlier life of this pid, e.g. pid 1 in a
    // container restarted after a crash): take it over.
    removeStale(file, dataDir);
  }
  throw busy(dataDir, 'unknown');
}
