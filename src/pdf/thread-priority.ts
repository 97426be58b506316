/** A worker thread's priority: the PDF renderers and the payroll computers take only the CPU nothing else wants. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';

/**
 * A render thread takes only the CPU nothing else wants, so that `GET /api/access` keeps its
 * latency while every core renders. On Linux a thread's scheduling is its own (the process's
 * other threads keep theirs): as SCHED_IDLE (set by util-linux's `chrt`) it gives up its core
 * the moment any other thread wakes, the event loop or PostgreSQL; under PDFs at 8 connections
 * the event loop then waited for a core 136-161 ms a second, against 233-238 at nice +10, which
 * remains the fallback (bench/README.md). Not in a main thread (the bench's loop imports this
 * module), nor elsewhere than Linux, where it would lower the whole process.
 */
const RENDER_NICENESS = 10;
export function yieldTheCpu(): void {
  if (isMainThread || process.platform !== 'linux') return;
  try {
    const threadId = fs.readlinkSync('/proc/thread-self').split('/').at(-1)!;
    execFileSync('chrt', ['--idle', '--pid', '0', threadId], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    os.setPriority(Math.min(19, os.getPriority() + RENDER_NICENESS));
  }
}
