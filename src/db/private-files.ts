/**
 * `DATA_DIR` holds the whole embedded database, e-mails that carry live sign-in links, the
 * lock and the control socket: its owner's alone. The directory is 0700, its files 0600 and
 * its directories 0700, whatever the process's umask and whatever modes PGlite gives the
 * files it unpacks (0666).
 */
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * For the entry points (server, command line): whatever the process creates from now on is
 * its owner's alone (PGlite's new table files, a control socket before its chmod).
 */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}

/** Creates `dir` (and missing parents) 0700, and makes an existing one 0700. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Every file under `dir` 0600 and every directory 0700 (`dir` included); sockets and links are left as they are. */
export function makeTreePrivate(dir: string): void {
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) makeTreePrivate(full);
    else if (entry.isFile()) fs.chmodSync(full, PRIVATE_FILE_MODE);
  }
}
