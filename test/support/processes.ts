/** The processes a test starts, read from /proc (Linux): which of them run a module, each thread's scheduling policy, the CPU time used. */
import fs from 'node:fs';

/**
 * The fields of a `/proc/…/stat` file after the command name, which may hold spaces and is
 * closed by the last `)`: index 0 is field 3 of proc(5), the state.
 */
function statFields(file: string): string[] {
  const stat = fs.readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** This process's children whose command line names `module` (`payroll.process`, `pdf.process`). */
export function childProcessesRunning(module: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        const parent = Number(statFields(`/proc/${entry}/stat`)[1]);
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
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => Number(statFields(`/proc/${pid}/task/${tid}/stat`)[38]));
}

/** The CPU time a process has used, in clock ticks (user and system, fields 14 and 15): it grows once the process works. */
export function cpuTicks(pid: number): number {
  const fields = statFields(`/proc/${pid}/stat`);
  return Number(fields[11]) + Number(fields[12]);
}
