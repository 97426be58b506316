/**
 * The limit of the payroll run: the plain library loop in one process. One `Engine`
 * on the pinned model, and for each situation `setSituation` then `evaluate` of every figure
 * docs/payroll.md reads (`evaluatingModel`: the library's documented API, nothing compiled), assembled
 * by the service's own `computePayslip`, so that the payslips can be compared to the cent.
 *
 * Usage: node --import tsx bench/payroll-loop.ts '{"file":"/tmp/situations.json","out":"/tmp/payslips.json"}'
 * Reads a JSON array of situations; writes their payslips (in order, or `{ error }`) to `out`;
 * prints one JSON line: `{ payslips, seconds, rate, build_seconds }` (the engine's build is not
 * counted: the service builds its own once a thread).
 */
import fs from 'node:fs';
import { computePayslip } from '../src/payroll/compute.ts';
import { evaluatingModel } from '../src/payroll/model.ts';
import type { Situation } from '../src/payroll/situation.ts';

const input = JSON.parse(process.argv[2] ?? '{}') as { file: string; out: string };
const situations = JSON.parse(fs.readFileSync(input.file, 'utf8')) as Situation[];
const built = performance.now();
const model = evaluatingModel();
const buildSeconds = (performance.now() - built) / 1000;
const started = performance.now();
const payslips = situations.map((situation) => {
  try {
    return computePayslip(model, situation);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
});
const seconds = (performance.now() - started) / 1000;
fs.writeFileSync(input.out, JSON.stringify(payslips));
process.stdout.write(`${JSON.stringify({ payslips: situations.length, seconds, rate: situations.length / seconds, build_seconds: buildSeconds })}\n`);
