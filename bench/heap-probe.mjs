/**
 * Loaded into the server under test by `node --import` (the PDF memory scenario only), to tell
 * a leak from a heap that V8 lets grow between its full collections: on SIGWINCH (a signal the
 * service leaves alone; it stops on SIGUSR2 among others), a full garbage
 * collection of the main thread, then the bytes its heap still holds, one line appended to
 * `HEAP_PROBE_FILE`. The service's own code is untouched.
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

const file = process.env.HEAP_PROBE_FILE;
if (isMainThread && file) {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc');
  process.on('SIGWINCH', () => {
    collect();
    fs.appendFileSync(file, `${process.memoryUsage().heapUsed}\n`);
  });
}
