/**
 * The law the model lacks (law/spectacle): each rule cites its sources, is in the model's own
 * names, and gives the published figure it was written from.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import modeleSocial from 'modele-social';
import { computePayslip, NotComputable } from '../../src/payroll/compute.ts';
import { overlayRules } from '../../src/payroll/law.ts';
import { buildEngine, evaluatingModel, type PayrollEngine } from '../../src/payroll/model.ts';
import { monthPay, situationFor, type PayrollContract } from '../../src/payroll/situation.ts';

const I = 'salarié . régimes spécifiques . intermittents du spectacle';
const model = modeleSocial as unknown as Record<string, unknown>;

/** An engine's value in €/mois. */
function monthly(engine: PayrollEngine, rule: string): number {
  return engine.evaluate({ valeur: rule, unité: '€/mois' } as never).nodeValue as number;
}

/** The situation of an intermittent's month (December 2026, an association of five, SVP). */
function intermittent(kind: 'artiste' | 'technicien', gross: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    date: "'01/12/2026'",
    dirigeant: 'non',
    'entreprise . catégorie juridique': "'association'",
    'entreprise . salariés . effectif': '5 employé',
    'salarié . contrat': "'CDD'",
    'salarié . contrat . CDD . motif': "'classique . usage'",
    'salarié . convention collective': "'SVP'",
    [I]: `'${kind}'`,
    'salarié . contrat . salaire brut': `${gross} €/mois`,
    ...extra,
  };
}

let engine: PayrollEngine;
before(() => {
  engine = buildEngine();
});

describe('the overlay of the performing arts (law/spectacle)', () => {
  it('should cite at least one source, with its address, for every rule that carries a figure or a condition', () => {
    const rules = overlayRules();
    assert.ok(Object.keys(rules).length >= 15);
    for (const [name, rule] of Object.entries(rules)) {
      if (!rule || typeof rule !== 'object') continue;
      // Questions and sums of totals carry no law of their own.
      if ('question' in rule || ('remplace' in rule && 'somme' in rule && !('références' in rule))) continue;
      const references = rule.références as Record<string, string> | undefined;
      assert.ok(references && Object.keys(references).length > 0, `${name}: no références`);
      for (const [title, url] of Object.entries(references)) {
        assert.match(url, /^https?:\/\//, `${name}: ${title}`);
        assert.ok(title.length > 10, `${name}: a reference titled "${title}"`);
      }
    }
  });

  it('should add rules in the model\u2019s names, and redefine only the two rules of the model it corrects', () => {
    const redefined = Object.keys(overlayRules())
      .filter((name) => name in model)
      .sort();
    assert.deepEqual(redefined, [`${I} . caisse des congés spectacle`, `${I} . formation professionnelle`]);
    for (const name of Object.keys(overlayRules())) {
      const parent = name.split(' . ').slice(0, -1).join(' . ');
      assert.ok(parent in model || parent in overlayRules(), `${name}: its parent is no rule`);
    }
  });

  it('should charge an intermittent the specific unemployment contribution: 2.40 % and 5 % of the gross', () => {
    // law/spectacle: 12.00 on a 500.00 artist's day, 72.00 on a technician's 3 000.00.
    engine.setSituation(
      intermittent('artiste', '500', {
        [`${I} . artiste . engagements de moins de cinq jours`]: 'oui',
        [`${I} . artiste . jours de travail`]: '1 jour/mois',
      }) as never,
    );
    assert.equal(monthly(engine, `${I} . chômage spécifique . salarié`), 12);
    assert.equal(monthly(engine, `${I} . chômage spécifique . employeur`), 25);
    engine.setSituation(intermittent('technicien', '3000', { [`${I} . heures rémunérées`]: '80 heure/mois' }) as never);
    assert.equal(monthly(engine, `${I} . chômage spécifique . salarié`), 72);
    assert.equal(monthly(engine, `${I} . chômage spécifique . employeur`), 150);
  });

  it('should raise the common employer rate by 0.5 point for a CDDU of three months at most only', () => {
    const tech = (short: string) =>
      intermittent('technicien', '2000', { [`${I} . heures rémunérées`]: '80 heure/mois', [`${I} . CDDU de trois mois au plus`]: short });
    engine.setSituation(tech('oui') as never);
    assert.equal(monthly(engine, 'salarié . cotisations . chômage'), 90); // 4.50 % of 2 000
    engine.setSituation(tech('non') as never);
    assert.equal(monthly(engine, 'salarié . cotisations . chômage'), 80); // 4.00 %
  });

  it('should cap a one-day artist\u2019s capped contributions at 12 hourly ceilings: 360 € in 2026', () => {
    // Chèque-Intermittents, "Paie des intermittents du spectacle en 2026": 30 € an hour, 360 € for one day.
    engine.setSituation(
      intermittent('artiste', '500', {
        [`${I} . artiste . engagements de moins de cinq jours`]: 'oui',
        [`${I} . artiste . jours de travail`]: '1 jour/mois',
      }) as never,
    );
    assert.equal(monthly(engine, `${I} . artiste . plafond des engagements courts`), 360);
    // The employee's capped old-age contribution: 6.90 % × 70 % of 360.
    assert.equal(Math.round(monthly(engine, 'salarié . cotisations . vieillesse . salarié . plafonnée') * 100), 1739);
    // Five days or more: the month's ceiling (the pay period's), so the whole 500.
    engine.setSituation(
      intermittent('artiste', '500', {
        [`${I} . artiste . engagements de moins de cinq jours`]: 'non',
        [`${I} . artiste . jours de travail`]: '1 jour/mois',
      }) as never,
    );
    assert.equal(Math.round(monthly(engine, 'salarié . cotisations . vieillesse . salarié . plafonnée') * 100), 2415);
  });

  it('should train an intermittent at 2 % to URSSAF and 0.10 % to AFDAS, without the CPF-CDD', () => {
    engine.setSituation(intermittent('artiste', '1000', { [`${I} . artiste . jours de travail`]: '2 jour/mois' }) as never);
    assert.equal(monthly(engine, 'salarié . cotisations . formation professionnelle'), 20);
    assert.equal(monthly(engine, `${I} . formation professionnelle conventionnelle`), 1);
    assert.equal(engine.evaluate('salarié . cotisations . CPF CDD' as never).nodeValue, null);
  });

  it('should charge Congés Spectacles at 15.50 % since April 2023, and 15.40 % before', () => {
    engine.setSituation(intermittent('artiste', '1000') as never);
    assert.equal(monthly(engine, `${I} . caisse des congés spectacle`), 155);
    engine.setSituation({ ...intermittent('artiste', '1000'), date: "'01/03/2023'" } as never);
    assert.equal(monthly(engine, `${I} . caisse des congés spectacle`), 154);
  });

  it('should count a technician\u2019s reduction on the SMIC of the hours paid, times 100/90', () => {
    // March 2026: 40 hours at 12.02 € (the SMIC of 1 January 2026, Sligec 19/12/2025): 480.80;
    // 900.00 < 3 × 480.80 so the reduction applies; BOSS: coefficient
    // (Tmin 0.02 + Tdelta 0.3781 × (0.5 × (3 × 480.80 / 900 − 1))^1.75) × 100/90, four decimals.
    engine.setSituation({ ...intermittent('technicien', '900', { [`${I} . heures rémunérées`]: '40 heure/mois' }), date: "'01/03/2026'" } as never);
    const smic = 40 * 12.02;
    const coefficient = Math.round((0.02 + 0.3781 * (0.5 * ((3 * smic) / 900 - 1)) ** 1.75) * (100 / 90) * 10_000) / 10_000;
    assert.equal(Math.round(monthly(engine, 'salarié . cotisations . exonérations . RGDU') * 100), Math.round(900 * coefficient * 100));
    // Without the hours, the reduction is not computed (never a full-time month's).
    engine.setSituation(intermittent('technicien', '900') as never);
    assert.equal(engine.evaluate('salarié . cotisations . exonérations . RGDU' as never).nodeValue, undefined);
  });

  it('should charge CASC-SVP at 0.50 % of the gross within the ceiling from 2026, and refuse earlier months', () => {
    engine.setSituation(intermittent('artiste', '5000') as never);
    assert.ok(Math.abs(monthly(engine, 'salarié . convention collective . SVP . CASC') - 20.025) < 1e-9); // 0.50 % of 4 005
    assert.equal(engine.evaluate('salarié . convention collective . SVP . CASC . taux connu' as never).nodeValue, true);
    // Before 2026 the rate depends on an extension date not found: the service refuses the payslip.
    engine.setSituation({ ...intermittent('artiste', '1000'), date: "'01/12/2025'" } as never);
    assert.equal(engine.evaluate('salarié . convention collective . SVP . CASC . taux connu' as never).nodeValue, false);
  });

  it('should take the apprenticeship tax of an intermittent on 110 % of the base', () => {
    engine.setSituation(intermittent('artiste', '1000') as never);
    // (0.59 % + 0.09 %) of 1 100.
    assert.equal(Math.round(monthly(engine, "salarié . cotisations . taxe d'apprentissage") * 100), 748);
  });

  it('should leave an intermittent out of the company health plan, and count the SVP provident contribution in the CSG base', () => {
    engine.setSituation(intermittent('artiste', '1000') as never);
    assert.equal(engine.evaluate('salarié . cotisations . prévoyances . santé . employeur' as never).nodeValue, null);
    // 98.25 % of 1 000 plus the SVP provident contribution (1.20 % of 1 000).
    assert.equal(Math.round(monthly(engine, 'salarié . cotisations . CSG-CRDS . assiette de base') * 100), 99450);
  });
});

describe('what the service refuses rather than computes wrong', () => {
  const ORG = { effectif: 5, convention: 'SVP' as const, categorie_juridique: 'association' as const, taux_at: null };
  const cdi = { kind: 'CDI' as const, start_date: '2024-01-01', end_date: null, monthly_gross: '2500.00', dates: [] };
  const payOf = (contract: PayrollContract, period: string) => {
    const pay = monthPay(contract, period);
    assert.ok(!('skip' in pay));
    return pay;
  };

  it('should refuse an artist\u2019s flat deduction that the model would floor at a full-time SMIC, and compute one it applies at its rate', () => {
    const model = evaluatingModel(engine);
    const oneDay: PayrollContract = {
      kind: 'CDDU',
      start_date: '2026-12-04',
      end_date: '2026-12-04',
      monthly_gross: null,
      dates: [{ date: '2026-12-04', amount: '500.00', nature: 'representation', quantity: 1 }],
    };
    const artist = { category: 'artiste' as const, cadre: false, pas_rate: null, dfs: 'artiste_dramatique' as const };
    assert.throws(
      () => computePayslip(model, situationFor('2026-12', ORG, artist, payOf(oneDay, '2026-12'))),
      (e: unknown) => e instanceof NotComputable && /déduction forfaitaire spécifique/.test(e.message),
    );
    // 3 000.00 less 18 % (the 2026 rate of dramatic artists, Les Echos Publishing 02/12/2024): 2 460.00, above the floor and within the cap.
    const month: PayrollContract = {
      kind: 'CDDU',
      start_date: '2026-12-01',
      end_date: '2026-12-08',
      monthly_gross: null,
      dates: Array.from({ length: 8 }, (_, i) => ({ date: `2026-12-0${i + 1}`, amount: '375.00', nature: 'representation', quantity: 1 })),
    };
    const payslip = computePayslip(model, situationFor('2026-12', ORG, artist, payOf(month, '2026-12')));
    assert.equal(payslip.lines.find((l) => l.code === 'salarié . cotisations . maladie')?.base, '2460.00');
    // Unemployment stays on the gross before the deduction: 4.50 % of 3 000.00.
    assert.equal(payslip.lines.find((l) => l.code === 'salarié . cotisations . chômage')?.employer_amount, '135.00');
  });

  it('should refuse a month of 2025 under the SVP convention (the CASC-SVP rate is unknown), not under the general one', () => {
    const model = evaluatingModel(engine);
    const permanent = { category: 'permanent' as const, cadre: false, pas_rate: null };
    assert.throws(
      () => computePayslip(model, situationFor('2025-12', ORG, permanent, payOf(cdi, '2025-12'))),
      (e: unknown) => e instanceof NotComputable && /CASC-SVP/.test(e.message),
    );
    const general = computePayslip(model, situationFor('2025-12', { ...ORG, convention: 'droit_commun' }, permanent, payOf(cdi, '2025-12')));
    assert.equal(general.gross, '2500.00');
  });
});
