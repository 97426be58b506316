/**
 * Work that would hold the event loop (a payslip's computation, a PDF's layout) done in child
 * processes at the lowest priority: the one pool shape of the service (workerpool), used by the
 * payroll's computers and the PDF renderers.
 *
 * Processes rather than worker threads, for the garbage collector. In threads, the collections
 * of their heaps ran on V8's helper threads, which are the whole process's and at normal priority
 * beside the event loop: under PDFs the one helper took as much CPU as PostgreSQL, and during a
 * payroll run about half a core; `GET /api/access` waited for a core behind them (bench/README.md,
 * A child process lowers itself as a whole, its collector's threads included
 * (`serveAtIdlePriority`), so it takes only the CPU nothing else wants.
 *
 * The processes start with the first task and stop after a minute without work; `close()` stops
 * them at once (a server's shutdown, a CLI command's end, a test file's `after`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import workerpool from 'workerpool';

const IDLE_TIMEOUT_MS = 60_000;
const NICENESS = 10;

export interface IdleProcessPool {
  /** `method` of the child module with these arguments, in the first free process. */
  exec<T>(method: string, args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

export interface IdleProcessOptions {
  /**
   * The child's module without its extension, relative to `from` (the caller's `import.meta.url`):
   * it takes the caller's, `.ts` under tsx (tests, CLI), `.js` in the compiled `dist/`.
   */
  module: string;
  from: string;
  processes: number;
  /** V8 flags for each child (heap sizes). */
  v8Flags: string[];
  /**
   * `advanced` (the structured clone) when a task's arguments or answer hold binary data, as a
   * PDF's bytes; `json` is cheaper for plain objects.
   */
  serialization: 'json' | 'advanced';
}

export function idleProcessPool(options: IdleProcessOptions): IdleProcessPool {
  // Under tsx the child is TypeScript and needs tsx's loader too.
  const fromSource = new URL(options.from).pathname.endsWith('.ts');
  const script = fileURLToPath(new URL(`${options.module}${fromSource ? '.ts' : '.js'}`, options.from));
  let pool: workerpool.Pool | null = null;
  let idleTimer: NodeJS.Timeout | null = null;

  const started = (): workerpool.Pool => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    pool ??= workerpool.pool(script, {
      workerType: 'process',
      minWorkers: 0,
      maxWorkers: options.processes,
      forkOpts: { execArgv: [...options.v8Flags, ...(fromSource ? ['--import', 'tsx'] : [])], serialization: options.serialization },
    });
    return pool;
  };

  const close = async (): Promise<void> => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    const current = pool;
    pool = null;
    await current?.terminate();
  };

  // A minute without work stops the processes (each holds tens to hundreds of MB).
  const stopWhenIdle = (current: workerpool.Pool): void => {
    const { activeTasks, pendingTasks } = current.stats();
    if (activeTasks + pendingTasks > 0 || current !== pool) return;
    idleTimer = setTimeout(() => {
      if (pool === current) void close();
    }, IDLE_TIMEOUT_MS);
    idleTimer.unref();
  };

  return {
    async exec<T>(method: string, args: unknown[]): Promise<T> {
      const current = started();
      try {
        return (await current.exec(method, args)) as T;
      } finally {
        stopWhenIdle(current);
      }
    },
    close,
  };
}

/**
 * In a child of an `idleProcessPool`: the whole process at the lowest priority, then its methods
 * served. SCHED_IDLE for every thread it has (util-linux's `chrt --all-tasks`; V8's collector
 * threads exist from the start, and the threads started later inherit it), so that it gives up
 * its core the moment the server or PostgreSQL wakes. Where `chrt` cannot run, nice 10 for each
 * thread (on Linux a thread's priority is its own).
 */
export function serveAtIdlePriority(methods: Record<string, (...args: never[]) => unknown>): void {
  if (workerpool.isMainThread) return;
  yieldTheCpuWholly();
  workerpool.worker(methods as Record<string, (...args: unknown[]) => unknown>);
}

function yieldTheCpuWholly(): void {
  if (process.platform !== 'linux') {
    os.setPriority(NICENESS);
    return;
  }
  try {
    execFileSync('chrt', ['--all-tasks', '--idle', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    for (const tid of fs.readdirSync('/proc/self/task')) os.setPriority(Number(tid), NICENESS);
  }
}
