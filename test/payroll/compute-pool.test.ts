/**
 * The computing processes: the same payslips as the library's evaluate, at
 * the lowest priority every thread of them, and a process that dies fails only its own chunk.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closePayrollPool, computeInPool } from '../../src/payroll/compute-pool.ts';
import { computePayslip } from '../../src/payroll/compute.ts';
import { evaluatingModel } from '../../src/payroll/model.ts';
import { monthPay, situationFor, type PayrollContract } from '../../src/payroll/situation.ts';
import { childProcessesRunning, cpuTicks, SCHED_IDLE, threadPolicies as policies } from '../support/processes.ts';

const PERIOD = '2026-03';
const ORG = { effectif: 1, convention: 'SVP', categorie_juridique: 'association', taux_at: null } as const;
const cdi = (monthly: string): PayrollContract => ({ kind: 'CDI', start_date: '2025-01-01', end_date: null, monthly_gross: monthly, dates: [] });
function situation(monthly: string) {
  const pay = monthPay(cdi(monthly), PERIOD);
  assert.ok(!('skip' in pay));
  return situationFor(PERIOD, ORG, { category: 'permanent', cadre: false, pas_rate: null }, pay);
}

const computerPids = () => childProcessesRunning('payroll.process');

const chrtWorks = process.platform === 'linux' && spawnSync('chrt', ['--idle', '0', 'true']).status === 0;
const linux = process.platform === 'linux';

after(() => closePayrollPool());

describe('the payroll computing processes', () => {
  it('should compute the payslips the library computes, in the order sent', async () => {
    const situations = ['2400.00', '3100.50', '1900.00'].map(situation);
    const outcomes = await computeInPool(situations);
    const direct = evaluatingModel();
    assert.deepEqual(
      outcomes,
      situations.map((s) => ({ ok: true, payslip: computePayslip(direct, s) })),
    );
    assert.equal(outcomes[0]!.ok && outcomes[0]!.payslip.gross, '2400.00');
  });

  it('should run every thread of a computing process at SCHED_IDLE', { skip: !chrtWorks && 'chrt --idle is not available here' }, async () => {
    await computeInPool([situation('2400.00')]);
    const pids = computerPids();
    assert.ok(pids.length >= 1);
    for (const pid of pids) {
      const all = policies(pid);
      assert.ok(all.length > 1, 'a node process has several threads');
      assert.deepEqual(
        all,
        all.map(() => SCHED_IDLE),
        `process ${pid}`,
      );
    }
    assert.notEqual(policies(process.pid)[0], SCHED_IDLE, 'the server itself keeps its priority');
  });

  it('should fail only the chunk of a process that dies, and compute the next one in a new process', { skip: !linux && 'reads /proc' }, async () => {
    await computeInPool([situation('2400.00')]);
    const [victim, ...others] = computerPids();
    assert.deepEqual(others, [], 'one chunk at a time needs one process');
    const idle = cpuTicks(victim!);
    const pending = computeInPool(Array.from({ length: 40 }, () => situation('2500.00')));
    // Killed once it is computing the chunk, as the CPU time it starts using shows.
    while (cpuTicks(victim!) === idle) await new Promise((resolve) => setImmediate(resolve));
    process.kill(victim!, 'SIGKILL');
    await assert.rejects(pending, /terminated unexpectedly/i);
    const next = await computeInPool([situation('2600.00')]);
    assert.equal(next[0]!.ok && next[0]!.payslip.gross, '2600.00');
    assert.ok(!computerPids().includes(victim!));
  });
});
