/**
 * The payroll computation off the event loop (PAYROLL 7): computing processes, one per core, each
 * with its own engine, started with the first run and stopped after a minute without work.
 *
 * Processes rather than worker threads, for the garbage collector. A payslip allocates tens of
 * megabytes; in threads, their collection ran on V8's helper threads, which are the whole
 * process's and at normal priority beside the event loop: with two threads computing they spent
 * about half a core, and `GET /api/access` waited for a core behind them (p99 during a run 0.38 of
 * its idle p99; bench/README.md, issue 38). A computing process runs as SCHED_IDLE as a whole
 * (`chrt --idle`, every thread of it, its collector's included), so it takes only the CPU
 * nothing else wants; where `chrt` is missing, at nice 10.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Situation } from './situation.ts';
import type { ComputeOutcome, ComputeReply, ComputeRequest } from './payroll.process.ts';

/**
 * A payslip's garbage dies young: in V8's default young generation (16 MB semi-spaces) it was
 * collected several times a payslip and what survived was promoted and marked again. 64 MB
 * semi-spaces (a 192 MB young generation): 300 payslips in 15.6 s instead of 20.6 (issue 38).
 */
const COMPUTER_V8_FLAGS = ['--max-semi-space-size=64', '--max-old-space-size=512'];
const IDLE_TIMEOUT_MS = 60_000;
const NICENESS = 10;

const fromSource = import.meta.url.endsWith('.ts');
const COMPUTER = new URL(fromSource ? './payroll.process.ts' : './payroll.process.js', import.meta.url);

export const PAYROLL_PROCESSES = os.availableParallelism();

/** How a computing process is started: under `chrt --idle` where it works, else under `nice`, else as is. */
function lowPriorityPrefix(): string[] {
  if (process.platform === 'win32') return [];
  const tried = (command: string, args: string[]) => spawnSync(command, [...args, 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  if (process.platform === 'linux' && tried('chrt', ['--idle', '0'])) return ['chrt', '--idle', '0'];
  if (tried('nice', ['-n', String(NICENESS)])) return ['nice', '-n', String(NICENESS)];
  return [];
}

interface Task {
  id: number;
  situations: Situation[];
  resolve(outcomes: ComputeOutcome[]): void;
  reject(error: Error): void;
}

interface Computer {
  child: ChildProcess;
  task: Task | null;
  idleTimer: NodeJS.Timeout | null;
}

class ComputerPool {
  private readonly computers = new Set<Computer>();
  private readonly queue: Task[] = [];
  private prefix: string[] | null = null;
  private nextId = 1;

  constructor(private readonly size: number) {}

  run(situations: Situation[]): Promise<ComputeOutcome[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, situations, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    for (const task of this.queue.splice(0)) task.reject(new Error('Le calcul de la paie s\u2019est arrêté.'));
    const exits = [...this.computers].map((computer) => this.stop(computer));
    await Promise.all(exits);
  }

  pids(): number[] {
    return [...this.computers].flatMap((c) => (c.child.pid ? [c.child.pid] : []));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let computer = [...this.computers].find((c) => c.task === null);
      if (!computer && this.computers.size < this.size) computer = this.start();
      if (!computer) return;
      const task = this.queue.shift()!;
      if (computer.idleTimer) clearTimeout(computer.idleTimer);
      computer.idleTimer = null;
      computer.task = task;
      computer.child.ref();
      computer.child.channel?.ref();
      computer.child.send({ id: task.id, situations: task.situations } satisfies ComputeRequest);
    }
  }

  private start(): Computer {
    this.prefix ??= lowPriorityPrefix();
    const [command, ...prefixArgs] = [...this.prefix, process.execPath];
    const args = [...prefixArgs, ...COMPUTER_V8_FLAGS, ...(fromSource ? ['--import', 'tsx'] : []), fileURLToPath(COMPUTER)];
    const child = spawn(command!, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    const computer: Computer = { child, task: null, idleTimer: null };
    this.computers.add(computer);
    child.on('message', (reply: ComputeReply) => {
      const task = computer.task;
      if (!task || reply.id !== task.id) return;
      computer.task = null;
      if ('outcomes' in reply) task.resolve(reply.outcomes);
      else task.reject(new Error(reply.error));
      this.idle(computer);
      this.dispatch();
    });
    const gone = (reason: string) => {
      if (!this.computers.delete(computer)) return;
      if (computer.idleTimer) clearTimeout(computer.idleTimer);
      computer.task?.reject(new Error(`Le processus de calcul de la paie s\u2019est arrêté (${reason}).`));
      computer.task = null;
      this.dispatch();
    };
    child.on('exit', (code, signal) => gone(signal ?? `code ${code}`));
    child.on('error', (error) => gone(error.message));
    return computer;
  }

  /** A computer without work neither keeps the server alive nor outlives a minute of idleness. */
  private idle(computer: Computer): void {
    computer.child.unref();
    computer.child.channel?.unref();
    computer.idleTimer = setTimeout(() => void this.stop(computer), IDLE_TIMEOUT_MS);
    computer.idleTimer.unref();
  }

  private stop(computer: Computer): Promise<void> {
    const { child } = computer;
    if (child.exitCode !== null || child.signalCode !== null) {
      this.computers.delete(computer);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

let pool: ComputerPool | null = null;

/** The payslips of these situations, in order, computed by a computing process. */
export function computeInPool(situations: Situation[]): Promise<ComputeOutcome[]> {
  pool ??= new ComputerPool(PAYROLL_PROCESSES);
  return pool.run(situations);
}

/** The computing processes' ids (the tests check their priority). */
export function computerPids(): number[] {
  return pool?.pids() ?? [];
}

export async function closePayrollPool(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.close();
}
