/**
 * The engine: the service's payslip (its compiled reads) against the pinned model
 * evaluated directly on the same situation, for every category; the names we send and read exist
 * in the model; the corrections of the model are needed and do what they say.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Engine from 'publicodes';
import modeleSocial from 'modele-social';
import { computePayslip, evaluateMonthly, OUTPUT_RULES, PAYSLIP_READS, roundToCent, type ComputedPayslip } from '../../src/payroll/compute.ts';
import { BASE, EMPLOYEE_TOTAL, EMPLOYER_TOTAL, LINE_RULES, HEADINGS } from '../../src/payroll/contribution-lines.ts';
import { correctedRules, MODEL_CORRECTIONS } from '../../src/payroll/model-corrections.ts';
import {
  buildEngine,
  compiledModel,
  evaluatingModel,
  hasRule,
  MODEL_VERSION,
  READ_OUT_NAMESPACE,
  type PayrollEngine,
  type PayrollModel,
} from '../../src/payroll/model.ts';
import { OVERLAY_VERSION } from '../../src/payroll/law.ts';
import { monthPay, situationFor, type PayrollContract, type PayrollEmployee, type PayrollOrg } from '../../src/payroll/situation.ts';
import { sumMoney, type Money } from '../../src/money/money.ts';
import pkg from '../../package.json' with { type: 'json' };

const quiet = { log() {}, warn() {}, error() {} };
const ORG: PayrollOrg = { effectif: 1, convention: 'SVP', categorie_juridique: 'association', taux_at: null };
const ARTIST: PayrollEmployee = { category: 'artiste', cadre: false, pas_rate: null };
const TECHNICIAN: PayrollEmployee = { category: 'technicien', cadre: false, pas_rate: null };
const PERMANENT: PayrollEmployee = { category: 'permanent', cadre: false, pas_rate: null };

function cddu(amounts: string[]): PayrollContract {
  return {
    kind: 'CDDU',
    start_date: '2026-03-01',
    end_date: null,
    monthly_gross: null,
    dates: amounts.map((amount, i) => ({ date: `2026-03-${String(2 + i).padStart(2, '0')}`, amount })),
  };
}
const cdi = (monthly: string, start = '2025-01-01', end: string | null = null): PayrollContract => ({
  kind: 'CDI',
  start_date: start,
  end_date: end,
  monthly_gross: monthly,
  dates: [],
});

const CASES: Array<{ name: string; org?: PayrollOrg; employee: PayrollEmployee; contract: PayrollContract }> = [
  { name: 'artist, 1 day', employee: ARTIST, contract: cddu(['450.00']) },
  { name: 'artist, 3 days', employee: ARTIST, contract: cddu(['300.00', '300.00', '400.00']) },
  { name: 'artist, 8 days', employee: ARTIST, contract: cddu(Array(8).fill('260.50')) },
  { name: 'technician, 4 days', employee: TECHNICIAN, contract: cddu(['220.00', '220.00', '220.00', '240.00']) },
  { name: 'CDI non-cadre', employee: PERMANENT, contract: cdi('2400.00') },
  { name: 'CDI cadre', employee: { ...PERMANENT, cadre: true }, contract: cdi('4200.00') },
  { name: 'CDI prorated (from the 10th)', employee: PERMANENT, contract: cdi('2100.00', '2026-03-10') },
  { name: 'personalised PAS rate', employee: { ...PERMANENT, pas_rate: '7.50' }, contract: cdi('3000.00') },
  {
    name: 'organization taux_at',
    org: { ...ORG, taux_at: '3.50', effectif: 60, categorie_juridique: 'SAS', convention: 'droit_commun' },
    employee: PERMANENT,
    contract: cdi('2600.00'),
  },
];

/** The bare engine (rule names), the service's compiled reads, and the library's own evaluate. */
let engine: PayrollEngine;
let service: PayrollModel;
let direct: PayrollModel;
before(() => {
  engine = buildEngine();
  service = compiledModel(PAYSLIP_READS);
  direct = evaluatingModel(buildEngine());
});

const cents = (m: Money) => BigInt(m.replace('.', ''));

describe('the payroll engine', () => {
  it('should pin exact versions of publicodes and modele-social, and store the model version', () => {
    assert.match(pkg.dependencies.publicodes, /^\d+\.\d+\.\d+$/);
    assert.match(pkg.dependencies['modele-social'], /^\d+\.\d+\.\d+$/);
    assert.equal(MODEL_VERSION, `modele-social@${pkg.dependencies['modele-social']}+spectacle.${OVERLAY_VERSION}`);
    assert.match(OVERLAY_VERSION, /^\d+$/);
  });

  it('should send only rule names that exist in the pinned model (every category)', () => {
    const names = new Set<string>();
    for (const c of CASES) {
      const pay = monthPay(c.contract, '2026-03');
      assert.ok(!('skip' in pay));
      for (const key of Object.keys(situationFor('2026-03', c.org ?? ORG, c.employee, pay))) names.add(key);
    }
    for (const name of names) assert.ok(hasRule(engine, name), `the situation key "${name}" is no rule of ${MODEL_VERSION}`);
    assert.ok(names.has('impôt . taux personnalisé') && names.has('salarié . cotisations . ATMP . taux'));
  });

  it('should read only rules that exist in the pinned model (outputs, lines, rates, bases)', () => {
    const read = [BASE, EMPLOYEE_TOTAL, EMPLOYER_TOTAL, ...Object.values(OUTPUT_RULES)];
    for (const line of LINE_RULES)
      read.push(...[line.code, line.employee, line.employer, line.employeeRate, line.employerRate, line.base].filter((n): n is string => Boolean(n)));
    for (const name of read) assert.ok(hasRule(engine, name), `"${name}" is no rule of ${MODEL_VERSION}`);
    for (const line of LINE_RULES) assert.ok(HEADINGS.includes(line.heading));
  });

  for (const c of CASES) {
    it(`should give the model's figures to the cent for: ${c.name}`, () => {
      const pay = monthPay(c.contract, '2026-03');
      assert.ok(!('skip' in pay));
      const situation = situationFor('2026-03', c.org ?? ORG, c.employee, pay);
      const payslip: ComputedPayslip = computePayslip(service, situation);
      direct.setSituation(situation);
      const model = (rule: string) => {
        const value = evaluateMonthly(direct, rule);
        assert.equal(typeof value, 'number', `${rule} is not computed for ${c.name}`);
        return value!;
      };
      // Exact: the model's values rounded half-up to the cent.
      for (const key of ['gross', 'net_taxable', 'net_social', 'employer_cost', 'pas_amount'] as const) {
        assert.equal(payslip[key], roundToCent(model(OUTPUT_RULES[key])), key);
      }
      // The bulletin adds up to the cent.
      assert.equal(payslip.employee_contributions, sumMoney(payslip.lines.map((l) => l.employee_amount)));
      assert.equal(payslip.employer_contributions, sumMoney(payslip.lines.map((l) => l.employer_amount)));
      assert.equal(cents(payslip.net_before_tax), cents(payslip.gross) - cents(payslip.employee_contributions));
      assert.equal(cents(payslip.net_to_pay), cents(payslip.net_before_tax) - cents(payslip.pas_amount));
      // Within a cent a line of the model's own totals.
      const tolerance = BigInt(payslip.lines.length);
      const near = (ours: Money, rule: string) => {
        const theirs = cents(roundToCent(model(rule)));
        const gap = cents(ours) - theirs;
        assert.ok(gap <= tolerance && gap >= -tolerance, `${rule}: ${ours} against the model's ${model(rule)}`);
      };
      near(payslip.employee_contributions, EMPLOYEE_TOTAL);
      near(payslip.employer_contributions, EMPLOYER_TOTAL);
      near(payslip.net_before_tax, OUTPUT_RULES.net_before_tax);
      near(payslip.net_to_pay, OUTPUT_RULES.net_to_pay);
      // Every line is one of the model's, not zero, with its organism.
      for (const line of payslip.lines) {
        assert.ok(line.employee_amount !== '0.00' || line.employer_amount !== '0.00');
        assert.ok(['URSSAF', 'FRANCE_TRAVAIL', 'AUDIENS', 'CONGES_SPECTACLES', 'AFDAS'].includes(line.organism));
      }
    });
  }

  it('should send an artist\u2019s engagement (the contract\u2019s days) and days of work, and collect each line where the law says', () => {
    const pay = monthPay(cddu(['300.00', '300.00', '400.00']), '2026-03');
    assert.ok(!('skip' in pay));
    const situation = situationFor('2026-03', ORG, ARTIST, pay);
    const I = 'salarié . régimes spécifiques . intermittents du spectacle';
    // The contract runs from 1 to 4 March (its last date): a four-day engagement, three days of work.
    assert.equal(situation[`${I} . artiste . nombre jours travaillés`], '4 jour');
    assert.equal(situation[`${I} . artiste . engagements de moins de cinq jours`], 'oui');
    assert.equal(situation[`${I} . artiste . jours de travail`], '3 jour/mois');
    assert.equal(situation[`${I} . CDDU de trois mois au plus`], 'oui');
    const p = computePayslip(service, situation);
    const line = (label: string) => p.lines.find((l) => l.label.startsWith(label));
    // Congés Spectacles: 15.50 % of 1 000.00 since April 2023 (Audiens' guide).
    assert.equal(line('Caisse des Congés Spectacles')?.employer_amount, '155.00');
    assert.equal(line('Caisse des Congés Spectacles')?.organism, 'CONGES_SPECTACLES');
    // The legal 2 % goes to URSSAF, the conventional 0.10 % to AFDAS; no CPF-CDD.
    assert.deepEqual(
      [line('Formation professionnelle des intermittents')?.employer_amount, line('Formation professionnelle des intermittents')?.organism],
      ['1.00', 'AFDAS'],
    );
    assert.deepEqual([line('Formation professionnelle')?.employer_amount, line('Formation professionnelle')?.organism], ['20.00', 'URSSAF']);
    assert.equal(line('Contribution CPF des CDD'), undefined);
    // Unemployment: the common 4.00 % + 0.50 point (a CDDU of three months at most) and the specific 5 % + 2.40 %, all to France Travail.
    assert.deepEqual([line('Chômage')?.employer_rate, line('Chômage')?.employer_amount, line('Chômage')?.organism], ['4.5', '45.00', 'FRANCE_TRAVAIL']);
    const specific = line('Contribution spécifique des intermittents');
    assert.deepEqual([specific?.employee_amount, specific?.employer_amount, specific?.organism], ['24.00', '50.00', 'FRANCE_TRAVAIL']);
    // No company health plan for an intermittent.
    assert.equal(line('Complémentaire santé'), undefined);
    // The artist's reduced rates: 70 % of the family allowance's 5.25 %.
    assert.equal(line('Allocations familiales')?.employer_rate, '3.675');
  });

  it('should apply the personalised PAS rate and the organization\u2019s AT/MP rate', () => {
    const pas = monthPay(cdi('3000.00'), '2026-03');
    assert.ok(!('skip' in pas));
    const withPas = computePayslip(service, situationFor('2026-03', ORG, { ...PERMANENT, pas_rate: '7.50' }, pas));
    assert.equal(withPas.pas_rate, '7.5');
    assert.ok(withPas.pas_amount !== '0.00');
    const at = computePayslip(service, situationFor('2026-03', { ...ORG, taux_at: '3.50' }, PERMANENT, pas));
    assert.equal(at.lines.find((l) => l.code === 'salarié . cotisations . ATMP')?.employer_rate, '3.5');
  });
});

describe('the month of a contract', () => {
  it('should sum a CDDU\u2019s dates in the period and count distinct days', () => {
    const contract: PayrollContract = {
      kind: 'CDDU',
      start_date: '2026-02-27',
      end_date: null,
      monthly_gross: null,
      dates: [
        { date: '2026-02-28', amount: '100.00' },
        { date: '2026-03-01', amount: '200.00' },
        { date: '2026-03-01', amount: '50.50' },
        { date: '2026-03-05', amount: '300.00' },
      ],
    };
    assert.deepEqual(monthPay(contract, '2026-03'), {
      kind: 'CDDU',
      gross: '550.50',
      days: 2,
      dates: ['2026-03-01', '2026-03-05'],
      hours: '0',
      dates_not_in_hours: true,
      engagement_days: 7,
      three_months_at_most: true,
      months: '0.25',
    });
    assert.deepEqual(monthPay(contract, '2026-04'), { skip: 'no_date_in_period' });
  });

  it('should prorate a CDI to the calendar days covered, half-up to the cent', () => {
    assert.deepEqual(monthPay(cdi('2100.00', '2026-03-10'), '2026-03'), { kind: 'CDI', gross: '1490.32', covered_days: 22, month_days: 31 });
    assert.deepEqual(monthPay(cdi('2000.00', '2025-01-01', '2026-02-14'), '2026-02'), { kind: 'CDI', gross: '1000.00', covered_days: 14, month_days: 28 });
    assert.deepEqual(monthPay(cdi('1000.00', '2026-03-01', '2026-03-01'), '2026-03'), { kind: 'CDI', gross: '32.26', covered_days: 1, month_days: 31 });
    assert.deepEqual(monthPay(cdi('2400.00'), '2026-03'), { kind: 'CDI', gross: '2400.00', covered_days: 31, month_days: 31 });
    assert.deepEqual(monthPay(cdi('2400.00', '2026-04-01'), '2026-03'), { skip: 'no_date_in_period' });
  });

  it('should skip a CDD (cdd_not_computed)', () => {
    assert.deepEqual(monthPay({ kind: 'CDD', start_date: '2026-03-01', end_date: '2026-03-31', monthly_gross: '2000.00', dates: [] }, '2026-03'), {
      skip: 'cdd_not_computed',
    });
  });
});

describe('the corrections of the pinned model', () => {
  // The model as published does not know the overlay's questions: they are left out here.
  const ARTIST_SITUATION = (() => {
    const pay = monthPay(cddu(['300.00', '300.00', '400.00']), '2026-03');
    if ('skip' in pay) throw new Error('unreachable');
    const raw = modeleSocial as unknown as Record<string, unknown>;
    return Object.fromEntries(Object.entries(situationFor('2026-03', ORG, ARTIST, pay)).filter(([key]) => key in raw || key === 'date' || key === 'dirigeant'));
  })();
  const costOf = (e: PayrollEngine) => roundToCent(e.evaluate({ valeur: 'salarié . coût total employeur', unité: '€/mois' }).nodeValue as number);

  it('should name rules that exist in the model as published, each with its reason', () => {
    const raw = modeleSocial as unknown as Record<string, unknown>;
    assert.ok(`${MODEL_CORRECTIONS[0]!.rule}` in raw);
    for (const correction of MODEL_CORRECTIONS) assert.ok(correction.reason.length > 40);
    // The defect the first one corrects is still there in the pinned version.
    assert.ok('par defaut' in (raw[MODEL_CORRECTIONS[0]!.rule] as object));
  });

  it('should be needed: without them an artist\u2019s employer cost is not computed, with them it is', () => {
    const uncorrected = new Engine(modeleSocial as never, { logger: quiet });
    uncorrected.setSituation(ARTIST_SITUATION as never);
    assert.equal(uncorrected.evaluate('salarié . coût total employeur').nodeValue, undefined);
    const corrected = new Engine(correctedRules(modeleSocial as never) as never, { logger: quiet }) as PayrollEngine;
    corrected.setSituation(ARTIST_SITUATION as never);
    // 1 000.00 of gross and the model's employer contributions, its figure before the overlay.
    assert.equal(costOf(corrected), '1532.30');
  });

  it('should leave the model\u2019s default for the supporting actor: `non`', () => {
    const { 'salarié . régimes spécifiques . intermittents du spectacle . artiste . acteur de complément': _dropped, ...withoutIt } = ARTIST_SITUATION;
    const corrected = new Engine(correctedRules(modeleSocial as never) as never, { logger: quiet }) as PayrollEngine;
    corrected.setSituation(withoutIt as never);
    assert.equal(corrected.evaluate('salarié . régimes spécifiques . intermittents du spectacle . artiste . acteur de complément').nodeValue, false);
    assert.equal(costOf(corrected), '1532.30');
  });
});

describe('the compiled reads', () => {
  const ORGS: PayrollOrg[] = [ORG, { effectif: 260, convention: 'droit_commun', categorie_juridique: 'SAS', taux_at: '1.70' }];
  const EMPLOYEES: PayrollEmployee[] = [
    ARTIST,
    { ...TECHNICIAN, cadre: true, pas_rate: '7.50' },
    { ...PERMANENT, cadre: true },
    { ...PERMANENT, pas_rate: '2.00' },
  ];

  it('should give exactly the payslip of the library\u2019s own evaluate, every line, on every category', () => {
    let compared = 0;
    for (const org of ORGS) {
      for (const employee of EMPLOYEES) {
        for (const amount of ['95.40', '1234.56', '9100.00']) {
          const contract = employee.category === 'permanent' ? cdi(amount) : cddu([amount, amount]);
          const pay = monthPay(contract, '2026-03');
          assert.ok(!('skip' in pay));
          const situation = situationFor('2026-03', org, employee, pay);
          assert.deepEqual(computePayslip(service, situation), computePayslip(direct, situation), JSON.stringify(situation));
          compared += 1;
        }
      }
    }
    assert.equal(compared, 24);
  });

  it('should add its read-out rules in a namespace the model does not have', () => {
    assert.equal(hasRule(engine, READ_OUT_NAMESPACE), false);
    assert.equal(
      Object.keys(engine.getParsedRules()).some((name) => name.startsWith(READ_OUT_NAMESPACE)),
      false,
    );
  });

  it('should refuse a figure it was not compiled for, and a situation entry that is not the model\u2019s', () => {
    const small = compiledModel([{ rule: OUTPUT_RULES.gross, monthly: true }]);
    small.setSituation(situationFor('2026-03', ORG, PERMANENT, { kind: 'CDI', gross: '2000.00' as Money, covered_days: 31, month_days: 31 }));
    assert.equal(small.read({ rule: OUTPUT_RULES.gross, monthly: true }), 2000);
    assert.throws(() => small.read({ rule: OUTPUT_RULES.employer_cost, monthly: true }), /without having been compiled/);
    assert.throws(() => small.setSituation({ 'salarié . contrat . pas une règle': 'oui' }), /n'existe pas/);
  });
});
