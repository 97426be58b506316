/** The processes a test starts, read from /proc (Linux): which of them run a module, and each thread's scheduling policy. */
import fs from 'node:fs';

/** This process's children whose command line names `module` (`payroll.process`, `pdf.process`). */
export function childProcessesRunning(module: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(module);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** SCHED_IDLE is policy 5, the 41st field of `/proc/<pid>/task/<tid>/stat`. */
export const SCHED_IDLE = 5;
export function threadPolicies(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
  });
}

/** The CPU time a process has used, in clock ticks (user and system): it grows once the process works. */
export function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
