/**
 * Reference payslips: every line of twelve situations computed here, from the published figures
 * of the law (the table below, each with its source and the source's date), and compared line by
 * line with the service's payslip (compiled model, as the computing processes run it). Nothing
 * expected is read from the engine. Amounts are exact decimals (bigint, 10⁻¹² €) rounded half-up
 * to the cent per line, as the service does; a line of the engine that the law contradicts is
 * asserted as the law says, in a test of its own marked `todo` with the difference.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computePayslip, NotComputable, PAYSLIP_READS, type ComputedPayslip } from '../../src/payroll/compute.ts';
import { compiledModel, type PayrollModel } from '../../src/payroll/model.ts';
import { monthPay, situationFor, type PayrollContract, type PayrollEmployee, type PayrollOrg } from '../../src/payroll/situation.ts';

// ——— Exact decimals: euros as bigint of 10⁻¹² €, rates as bigint of 10⁻⁶ percent. ———
type Exact = bigint;
const CENT = 10n ** 10n;
const RATE_ONE = 10n ** 8n; // 100 % in rate units

function decimal(text: string, scale: number): bigint {
  const [int, frac = ''] = text.split('.');
  if (frac.length > scale) throw new Error(`${text}: more than ${scale} decimals`);
  return BigInt(int!) * 10n ** BigInt(scale) + BigInt(frac.padEnd(scale, '0') || '0');
}
const eur = (text: string): Exact => decimal(text, 12);
const pct = (text: string): bigint => decimal(text, 6);
const times = (amount: Exact, rate: bigint): Exact => (amount * rate) / RATE_ONE;
const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
/** Half-up (away from zero) to the cent, as `roundToCent` does for the service. */
function cents(amount: Exact): bigint {
  const abs = amount < 0n ? -amount : amount;
  const rounded = (abs + CENT / 2n) / CENT;
  return amount < 0n ? -rounded : rounded;
}
function money(c: bigint): string {
  const abs = c < 0n ? -c : c;
  const text = abs.toString().padStart(3, '0');
  return `${c < 0n ? '-' : ''}${text.slice(0, -2)}.${text.slice(-2)}`;
}
/** A rate as the service prints it (`"5.985"`, `"4.5"`). */
function rateText(rate: bigint): string {
  const text = rate.toString().padStart(7, '0');
  return `${text.slice(0, -6)}.${text.slice(-6)}`.replace(/\.?0+$/, '');
}

// ——— The law's figures (period 2026-12) ———

/** PSS 2026, 4 005 €/month, and its hourly value, 30 € (Cerfrance Maine-et-Loire, « Quelques chiffres utiles en paie au 1er janvier 2026 », 28/01/2026; arrêté confirming BOSS of 21/10/2025). */
const PSS = eur('4005');
const PSS_HOURLY = eur('30');
/**
 * SMIC horaire: 12,02 € on 1 January 2026 (Azerfi / Les Echos Publishing, « Le Smic horaire à 12,02 € en 2026 », 19/12/2025),
 * raised to 12,31 € on 1 June 2026 by the automatic mid-year revaluation (code du travail L3231-5), as URSSAF's own model
 * records it (modele-social CHANGELOG « Augmentation du Smic au 1er juin 2026 », commit 24ef4e51d of 05/06/2026).
 * December 2026 takes the June value.
 */
const SMIC_HOURLY_JANUARY_2026 = eur('12.02');
const SMIC_HOURLY = eur('12.31');
/** A full-time month: 1 820 hours a year / 12 (BOSS, allègements généraux, « Smic calculé pour un an » = 1 820 × Smic horaire). */
const FULL_TIME_SMIC = (SMIC_HOURLY * 1820n) / 12n;

/** Cotisations de sécurité sociale « à jour au 1er janvier 2026 » (Les Echos Publishing, jurisalliance.notaires.fr / aliantis.net, 2026): maladie 13 % (the 7 % rate only for employers outside the RGDU), vieillesse plafonnée 6,90 % / 8,55 %, déplafonnée 0,40 % / 2,11 %, allocations familiales 5,25 %. */
const MALADIE_ER = pct('13');
const VIEILLESSE_PLAF_EE = pct('6.90');
const VIEILLESSE_PLAF_ER = pct('8.55');
const VIEILLESSE_DEPLAF_EE = pct('0.40');
const VIEILLESSE_DEPLAF_ER = pct('2.11');
const ALLOC_FAM = pct('5.25');
/** secofi.fr, « Taux de cotisations sociales Urssaf 2026 » (2026): CSA 0,30 %, FNAL 0,10 % (< 50 employees, capped), contribution au dialogue social 0,016 %, taxe d'apprentissage 0,68 %, formation professionnelle 0,55 % (< 11 employees). */
const CSA = pct('0.30');
const FNAL = pct('0.10');
const DIALOGUE_SOCIAL = pct('0.016');
const TAXE_APPRENTISSAGE = pct('0.68');
const FORMATION_UNDER_11 = pct('0.55');
/** The mean AT/MP rate 2026, 2,08 % (Petites Affiches 64, « Ce qui change au 1er janvier 2026 »): the rate of an organization that sets none. */
const ATMP_DEFAULT = pct('2.08');
/** Artists: the national AT/MP rate of risk code 923AC (GHS, « Taux d'accident du travail »), 1,12 % as URSSAF's model carries it; the 2026 arrêté was not found. */
const ATMP_ARTIST = pct('1.12');
/** Unemployment 4,00 % since May 2025 and AGS 0,25 % (Azerfi / Les Echos Publishing, « Le taux de la cotisation AGS reste fixé à 0,25 % au 1er janvier 2026»), both up to 4 PSS. */
const CHOMAGE = pct('4.00');
const AGS = pct('0.25');
/** CSG 9,20 % (6,80 % deductible) and CRDS 0,50 % on 98,25 % of gross pay up to 4 PSS, plus the employer's provident and health contributions (URSSAF, « CSG-CRDS », revenus d'activité; URSSAF « Taux réduits » for artists: abattement 1,75 %). */
const CSG_DEDUCTIBLE = pct('6.80');
const CSG_CRDS_NON_DEDUCTIBLE = pct('2.90');
const CSG_BASE_SHARE = pct('98.25');
/** Agirc-Arrco 2026, unchanged (circulaire 2025-16-SG-DRJ of 30/10/2025, Légisocial « Agirc-Arrco : les paramètres 2026 »; EFL chiffres-taux of 16/01/2026): T1 3,15 % / 4,72 %, T2 8,64 % / 12,95 %, CEG T1 0,86 % / 1,29 %, T2 1,08 % / 1,62 %, CET 0,14 % / 0,21 % above the PSS. */
const AA_T1_EE = pct('3.15');
const AA_T1_ER = pct('4.72');
const AA_T2_EE = pct('8.64');
const AA_T2_ER = pct('12.95');
const CEG_T1_EE = pct('0.86');
const CEG_T1_ER = pct('1.29');
const CEG_T2_EE = pct('1.08');
const CEG_T2_ER = pct('1.62');
const CET_EE = pct('0.14');
const CET_ER = pct('0.21');
/**
 * Intermittents (Audiens, « La retraite complémentaire Agirc-Arrco au 1er janvier 2019 », as URSSAF's model cites it):
 * T1 split half and half, 3,93 % / 3,94 % (technicians, cadres); artists non-cadres at the 7 % rate of points × 127 %,
 * 8,89 %: 4,44 % / 4,45 %; T2 10,79 % / 10,80 % for non-cadres.
 */
const AA_INTERMITTENT_T1_EE = pct('3.93');
const AA_INTERMITTENT_T1_ER = pct('3.94');
const AA_ARTIST_T1_EE = pct('4.44');
const AA_ARTIST_T1_ER = pct('4.45');
/** Apec 0,06 % of the cadre's pay up to 4 PSS: 0,024 % / 0,036 % (Axiome Associés, « Association pour l'emploi des cadres », 01/01/2026). */
const APEC_EE = pct('0.024');
const APEC_ER = pct('0.036');
/** Cadres' provident insurance: 1,50 % of T1, employer (ANI du 17/11/2017; Axiome Associés, « Prévoyance cadres », 01/01/2026). */
const PREVOYANCE_CADRE = pct('1.50');
/** The service's default company health plan: 40 €/month, half paid by the employer (code de la sécurité sociale L911-7); the contract's price is the model's default, not a rate of the law. */
const HEALTH_PLAN_EE = eur('20');
const HEALTH_PLAN_ER = eur('20');
/** Spectacle vivant privé (IDCC 3090): provident insurance of non-cadres 1,20 % of pay up to the PSS (article 12.6, titre VII), FCAP-SVP 0,10 % up to the PSS with 80 € to 300 € a year per company (titre V; Audiens' note), both as URSSAF's model cites them. */
const SVP_PREVOYANCE = pct('1.20');
const FCAP = pct('0.10');
const FCAP_FLOOR_PER_COMPANY_YEAR = eur('80');
const FCAP_CAP_PER_COMPANY_YEAR = eur('300');

/** Artists' reduced rates: 70 % of the general rates (maladie, vieillesse, AF, FNAL, AT) (arrêté du 24/01/1975; URSSAF, « Taux réduits », artistes du spectacle). */
const ARTIST_SHARE = 70n;
/** Under five continuous days, an artist's capped base is 12 hourly ceilings per day of work: 360 € a day in 2026 (arrêté du 24/01/1975 art. 3; URSSAF « Assiette de cotisations plafonnée »; Chèque-Intermittents 2026). From five days, the ceiling of the pay period: the month (same URSSAF page). */
const ARTIST_HOURS_PER_DAY = 12n;
/** Flat professional deduction of an « artiste dramatique »: 18 % in 2026 (Les Echos Publishing, 02/12/2024, via the overlay's dfs.publicodes). */
const DFS_ARTISTE_DRAMATIQUE = pct('18');
/** Intermittents' unemployment: specific contribution 2,40 % employee / 5 % employer; +0,5 point on the common rate for a CDDU of three months at most (Unédic, « Majoration des contributions générales », consulted 07/12/2026; EFL 2019; décret 2019-797). */
const CHOMAGE_SPECIFIQUE_EE = pct('2.40');
const CHOMAGE_SPECIFIQUE_ER = pct('5');
const CHOMAGE_CDDU_SURCHARGE = pct('0.5');
/** Training of intermittents: 2 % to URSSAF (code du travail L6331-55, Afdas) plus 0,10 % conventional to Afdas (accord interbranche du 25/09/2014); apprenticeship tax on 110 % of their pay (CSS D243-0-2, 2°). */
const FORMATION_INTERMITTENT = pct('2');
const FORMATION_CONVENTIONNELLE = pct('0.10');
const TAXE_APPRENTISSAGE_INTERMITTENT_BASE = pct('110');
/** Congés Spectacles 15,50 % since 1 April 2023 (Audiens' guide pratique); CASC-SVP 0,50 % of pay up to the PSS in 2026 (accord de branche du 18/10/2024). */
const CONGES_SPECTACLES = pct('15.50');
const CASC_SVP = pct('0.50');
/** RGDU 2026, < 50 employees: coefficient = Tmin + Tdelta × [½ (3 × Smic / pay − 1)]^1,75, rounded to 4 decimals, none from 3 Smic (CSS D241-7, décret 2025-1446 of 31/12/2025, artemis-paie 07/01/2026); × 100/90 when a paid-leave fund pays the holidays (BOSS, allègements généraux); for an intermittent, the Smic of the hours paid (BOSS). Not applied to artists on reduced rates (as URSSAF's model does: not confirmed). */
const RGDU_TMIN = 0.02;
const RGDU_TDELTA = 0.3781;
const RGDU_P = 1.75;
/**
 * Withholding, neutral grid for a month in metropolitan France, from 1 May 2026 (loi de finances 2026, barème +0,90 %;
 * Légisocial « Nouveau barème taux neutres 2026 »; formulepaie.fr): upper bound of each bracket, rate. Contracts of two
 * months at most on the neutral rate: the base is abated by half the monthly net taxable Smic, 748 € in 2026 (same
 * Légisocial article; CGI 204 H III; BOI-IR-PAS-20-20-30-10 n° 230 allows the 1 January value all year).
 */
const NEUTRAL_GRID: ReadonlyArray<[Exact | null, bigint]> = [
  [eur('1635'), pct('0')],
  [eur('1698'), pct('0.5')],
  [eur('1807'), pct('1.3')],
  [eur('1928'), pct('2.1')],
  [eur('2060'), pct('2.9')],
  [eur('2170'), pct('3.5')],
  [eur('2315'), pct('4.1')],
  [eur('2738'), pct('5.3')],
  [eur('3135'), pct('7.5')],
  [eur('3571'), pct('9.9')],
  [eur('4019'), pct('11.9')],
  [eur('4690'), pct('13.8')],
  [eur('5624'), pct('15.8')],
  [eur('7037'), pct('17.9')],
  [eur('8789'), pct('20')],
  [eur('12200'), pct('24')],
  [eur('16523'), pct('28')],
  [eur('25937'), pct('33')],
  [eur('55558'), pct('38')],
  [null, pct('43')],
];
const SHORT_CONTRACT_ALLOWANCE = eur('748');

// ——— The situations ———
const PERIOD = '2026-12';
const ORG: PayrollOrg = { effectif: 5, convention: 'SVP', categorie_juridique: 'association', taux_at: null };
const ARTIST: PayrollEmployee = { category: 'artiste', cadre: false, pas_rate: null };
const TECHNICIAN: PayrollEmployee = { category: 'technicien', cadre: false, pas_rate: null };
const PERMANENT: PayrollEmployee = { category: 'permanent', cadre: false, pas_rate: null };

/** A CDDU from `start` to `end`, one date a day from `firstDay` of December 2026, each paid `amount`. */
function cddu(start: string, end: string, count: number, amount: string, firstDay: number, hours = false): PayrollContract {
  return {
    kind: 'CDDU',
    start_date: start,
    end_date: end,
    monthly_gross: null,
    dates: Array.from({ length: count }, (_, i) => ({
      date: `2026-12-${String(firstDay + i).padStart(2, '0')}`,
      amount,
      ...(hours ? { nature: 'heures', quantity: '8' } : {}),
    })),
  };
}
const cdi = (monthly: string): PayrollContract => ({ kind: 'CDI', start_date: '2025-01-01', end_date: null, monthly_gross: monthly, dates: [] });

interface Case {
  id: string;
  why: string;
  org: PayrollOrg;
  employee: PayrollEmployee;
  contract: PayrollContract;
  /** The law's inputs the contract implies. */
  engagementDays?: number;
  workDays?: number;
  hours?: bigint;
  cdduThreeMonthsAtMost?: boolean;
  twoMonthsAtMost?: boolean;
}

const CASES: Case[] = [
  {
    id: '1',
    why: 'artist, one day: the short-engagement ceiling of 360 € decides the capped contributions',
    org: ORG,
    employee: ARTIST,
    contract: cddu('2026-12-05', '2026-12-05', 1, '500.00', 5),
    engagementDays: 1,
    workDays: 1,
    cdduThreeMonthsAtMost: true,
    twoMonthsAtMost: true,
  },
  {
    id: '2',
    why: 'artist, three days: the ceiling is 3 × 360 €, under the gross',
    org: ORG,
    employee: ARTIST,
    contract: cddu('2026-12-07', '2026-12-09', 3, '500.00', 7),
    engagementDays: 3,
    workDays: 3,
    cdduThreeMonthsAtMost: true,
    twoMonthsAtMost: true,
  },
  {
    id: '3',
    why: 'artist, five days: from five days on the monthly ceiling applies (5 × 360 € would have capped 2 500 €)',
    org: ORG,
    employee: ARTIST,
    contract: cddu('2026-12-07', '2026-12-11', 5, '500.00', 7),
    engagementDays: 5,
    workDays: 5,
    cdduThreeMonthsAtMost: true,
    twoMonthsAtMost: true,
  },
  {
    id: '4',
    why: 'artist, eight days: monthly ceiling, reduced rates, no RGDU',
    org: ORG,
    employee: ARTIST,
    contract: cddu('2026-12-07', '2026-12-14', 8, '200.00', 7),
    engagementDays: 8,
    workDays: 8,
    cdduThreeMonthsAtMost: true,
    twoMonthsAtMost: true,
  },
  {
    id: '5',
    why: 'artist with the 18 % flat deduction: social base 82 % of gross, unemployment, CSG and Congés Spectacles on the gross',
    org: ORG,
    employee: { ...ARTIST, dfs: 'artiste_dramatique' },
    contract: cddu('2026-12-07', '2026-12-11', 5, '600.00', 7),
    engagementDays: 5,
    workDays: 5,
    cdduThreeMonthsAtMost: true,
    twoMonthsAtMost: true,
  },
  {
    id: '6',
    why: 'technician non-cadre, 40 hours: the RGDU on the Smic of the hours paid, × 100/90',
    org: ORG,
    employee: TECHNICIAN,
    contract: cddu('2026-12-07', '2026-12-11', 5, '180.00', 7, true),
    hours: 40n,
    cdduThreeMonthsAtMost: true,
    twoMonthsAtMost: true,
  },
  {
    id: '7',
    why: 'technician cadre, 80 hours at 3 000 €: above 3 Smic of the hours (no RGDU), cadres\u2019 provident insurance and Apec',
    org: ORG,
    employee: { ...TECHNICIAN, cadre: true },
    contract: cddu('2026-12-07', '2026-12-16', 10, '300.00', 7, true),
    hours: 80n,
    cdduThreeMonthsAtMost: true,
    twoMonthsAtMost: true,
  },
  {
    id: '8',
    why: 'technician on a one-month CDDU: unemployment 4,00 % + 0,50 point',
    org: ORG,
    employee: TECHNICIAN,
    contract: cddu('2026-12-01', '2026-12-31', 10, '200.00', 7, true),
    hours: 80n,
    cdduThreeMonthsAtMost: true,
    twoMonthsAtMost: true,
  },
  {
    id: '9',
    why: 'technician on a four-month CDDU (1 Oct 2026 – 31 Jan 2027): unemployment 4,00 %, no short-contract allowance',
    org: ORG,
    employee: TECHNICIAN,
    contract: cddu('2026-10-01', '2027-01-31', 10, '200.00', 7, true),
    hours: 80n,
    cdduThreeMonthsAtMost: false,
    twoMonthsAtMost: false,
  },
  {
    id: '10',
    why: 'CDI non-cadre with a personal withholding rate of 7,50 %',
    org: ORG,
    employee: { ...PERMANENT, pas_rate: '7.50' },
    contract: cdi('2500.00'),
  },
  {
    id: '11',
    why: 'CDI cadre above the PSS (tranches 1 and 2, CET, Apec) with a personal rate of 12,00 %',
    org: ORG,
    employee: { ...PERMANENT, cadre: true, pas_rate: '12.00' },
    contract: cdi('5000.00'),
  },
  {
    id: '12',
    why: 'CDI non-cadre under the general convention: no SVP provident, CASC or FCAP',
    org: { ...ORG, convention: 'droit_commun' },
    employee: PERMANENT,
    contract: cdi('2500.00'),
  },
];

// ——— The law's payslip ———
const C = 'salarié . cotisations';
const I = 'salarié . régimes spécifiques . intermittents du spectacle';
const SVP = 'salarié . convention collective . SVP';

interface LawLine {
  organism: string;
  employee: Exact;
  employer: Exact;
  employeeRate?: bigint;
  employerRate?: bigint;
}
interface LawPayslip {
  gross: Exact;
  lines: Map<string, LawLine>;
  netTaxable: Exact;
  pasRate: bigint;
  pasBase: bigint; // cents
  employerCost: Exact;
  rgduCoefficient?: number;
}

function lawPayslip(c: Case): LawPayslip {
  const pay = monthPay(c.contract, PERIOD);
  if ('skip' in pay) throw new Error('unreachable');
  const gross = eur(pay.gross);
  const intermittent = c.contract.kind === 'CDDU';
  const artist = intermittent && c.employee.category === 'artiste';
  const cadre = c.employee.cadre;
  const svp = c.org.convention === 'SVP';
  const reduce = (rate: bigint) => (artist ? (rate * ARTIST_SHARE) / 100n : rate);
  const base = c.employee.dfs ? times(gross, RATE_ONE - DFS_ARTISTE_DRAMATIQUE) : gross;
  const ceiling = artist && c.engagementDays! < 5 ? PSS_HOURLY * ARTIST_HOURS_PER_DAY * BigInt(c.workDays!) : PSS;
  const capped = min(base, ceiling);
  const t1 = min(base, PSS);
  const t2 = min(max(base - PSS, 0n), 7n * PSS);
  const lines = new Map<string, LawLine>();
  const add = (code: string, line: LawLine) => lines.set(code, line);
  const er = (organism: string, amount: Exact, rate?: bigint): LawLine => ({ organism, employee: 0n, employer: amount, employerRate: rate });

  add(`${C} . maladie`, er('URSSAF', times(base, reduce(MALADIE_ER)), reduce(MALADIE_ER)));
  if (!intermittent) add(`${C} . prévoyances . santé`, { organism: 'AUDIENS', employee: HEALTH_PLAN_EE, employer: HEALTH_PLAN_ER });
  const prevoyanceCadre = cadre ? times(t1, PREVOYANCE_CADRE) : 0n;
  if (cadre) add(`${C} . prévoyances . incapacité invalidité décès`, er('AUDIENS', prevoyanceCadre));
  const atmp = artist ? ATMP_ARTIST : ATMP_DEFAULT;
  add(`${C} . ATMP`, er('URSSAF', times(base, atmp), atmp));
  add(`${C} . vieillesse . plafonnée`, {
    organism: 'URSSAF',
    employee: times(capped, reduce(VIEILLESSE_PLAF_EE)),
    employer: times(capped, reduce(VIEILLESSE_PLAF_ER)),
    employeeRate: reduce(VIEILLESSE_PLAF_EE),
    employerRate: reduce(VIEILLESSE_PLAF_ER),
  });
  add(`${C} . vieillesse . déplafonnée`, {
    organism: 'URSSAF',
    employee: times(base, reduce(VIEILLESSE_DEPLAF_EE)),
    employer: times(base, reduce(VIEILLESSE_DEPLAF_ER)),
    employeeRate: reduce(VIEILLESSE_DEPLAF_EE),
    employerRate: reduce(VIEILLESSE_DEPLAF_ER),
  });
  const [t1Ee, t1Er] = !intermittent
    ? [AA_T1_EE, AA_T1_ER]
    : artist && !cadre
      ? [AA_ARTIST_T1_EE, AA_ARTIST_T1_ER]
      : [AA_INTERMITTENT_T1_EE, AA_INTERMITTENT_T1_ER];
  add(`${C} . retraite complémentaire`, {
    organism: 'AUDIENS',
    employee: times(t1, t1Ee) + times(t2, AA_T2_EE),
    employer: times(t1, t1Er) + times(t2, AA_T2_ER),
  });
  add(`${C} . CEG`, { organism: 'AUDIENS', employee: times(t1, CEG_T1_EE) + times(t2, CEG_T2_EE), employer: times(t1, CEG_T1_ER) + times(t2, CEG_T2_ER) });
  if (base > PSS) add(`${C} . CET`, { organism: 'AUDIENS', employee: times(t1 + t2, CET_EE), employer: times(t1 + t2, CET_ER), employerRate: CET_ER });
  add(`${C} . allocations familiales`, er('URSSAF', times(base, reduce(ALLOC_FAM)), reduce(ALLOC_FAM)));
  // Unemployment and AGS of an intermittent are on the gross before the flat deduction.
  const unemploymentBase = min(intermittent ? gross : base, 4n * PSS);
  const chomageRate = intermittent && c.cdduThreeMonthsAtMost ? CHOMAGE + CHOMAGE_CDDU_SURCHARGE : CHOMAGE;
  const collector = intermittent ? 'FRANCE_TRAVAIL' : 'URSSAF';
  add(`${C} . chômage`, er(collector, times(unemploymentBase, chomageRate), chomageRate));
  if (intermittent) {
    add(`${I} . chômage spécifique`, {
      organism: 'FRANCE_TRAVAIL',
      employee: times(unemploymentBase, CHOMAGE_SPECIFIQUE_EE),
      employer: times(unemploymentBase, CHOMAGE_SPECIFIQUE_ER),
      employeeRate: CHOMAGE_SPECIFIQUE_EE,
      employerRate: CHOMAGE_SPECIFIQUE_ER,
    });
  }
  add(`${C} . AGS`, er(collector, times(unemploymentBase, AGS), AGS));
  if (cadre) add(`${C} . APEC`, { organism: 'AUDIENS', employee: times(min(base, 4n * PSS), APEC_EE), employer: times(min(base, 4n * PSS), APEC_ER) });
  add(`${C} . FNAL`, er('URSSAF', times(capped, reduce(FNAL)), reduce(FNAL)));
  add(`${C} . CSA`, er('URSSAF', times(base, CSA), CSA));
  const apprenticeshipBase = intermittent ? times(base, TAXE_APPRENTISSAGE_INTERMITTENT_BASE) : base;
  add(`${C} . taxe d'apprentissage`, er('URSSAF', times(apprenticeshipBase, TAXE_APPRENTISSAGE)));
  add(`${C} . formation professionnelle`, er('URSSAF', times(base, intermittent ? FORMATION_INTERMITTENT : FORMATION_UNDER_11)));
  if (intermittent) add(`${I} . formation professionnelle conventionnelle`, er('AFDAS', times(base, FORMATION_CONVENTIONNELLE), FORMATION_CONVENTIONNELLE));
  add(`${C} . contribution au dialogue social`, er('URSSAF', times(base, DIALOGUE_SOCIAL)));
  if (intermittent) add(`${I} . caisse des congés spectacle`, er('CONGES_SPECTACLES', times(gross, CONGES_SPECTACLES), CONGES_SPECTACLES));
  const svpPrevoyance = svp && !cadre ? times(t1, SVP_PREVOYANCE) : 0n;
  if (svp) {
    if (!cadre) add(`${SVP} . prévoyance`, er('AUDIENS', svpPrevoyance));
    add(`${SVP} . CASC`, er('AUDIENS', times(min(gross, PSS), CASC_SVP), CASC_SVP));
    const perEmployeeMonth = (perCompanyYear: Exact) => perCompanyYear / BigInt(c.org.effectif) / 12n;
    add(
      `${SVP} . FCAP`,
      er('AUDIENS', min(max(times(min(gross, PSS), FCAP), perEmployeeMonth(FCAP_FLOOR_PER_COMPANY_YEAR)), perEmployeeMonth(FCAP_CAP_PER_COMPANY_YEAR))),
    );
  }
  const employerProvident = svpPrevoyance + prevoyanceCadre + (intermittent ? 0n : HEALTH_PLAN_ER);
  const csgBase = times(min(gross, 4n * PSS), CSG_BASE_SHARE) + employerProvident;
  add(`${C} . CSG-CRDS . CSG . déductible`, { organism: 'URSSAF', employee: times(csgBase, CSG_DEDUCTIBLE), employer: 0n, employeeRate: CSG_DEDUCTIBLE });
  const csgNonDeductible = times(csgBase, CSG_CRDS_NON_DEDUCTIBLE);
  add(`${C} . CSG-CRDS . sur revenus imposables non déductible`, { organism: 'URSSAF', employee: csgNonDeductible, employer: 0n });

  let rgduCoefficient: number | undefined;
  if (!artist) {
    const smic = intermittent ? SMIC_HOURLY * c.hours! : FULL_TIME_SMIC;
    if (base < 3n * smic) {
      const ratio = Number((3n * smic * 10n ** 9n) / base) / 1e9;
      const raw = (RGDU_TMIN + RGDU_TDELTA * (0.5 * (ratio - 1)) ** RGDU_P) * (intermittent ? 100 / 90 : 1);
      rgduCoefficient = Math.round(raw * 10_000) / 10_000;
      const reduction = (base * BigInt(Math.round(rgduCoefficient * 10_000))) / 10_000n;
      add(`${C} . exonérations`, { organism: 'URSSAF', employee: 0n, employer: -reduction });
    }
  }

  const employeeExact = [...lines.values()].reduce((sum, l) => sum + l.employee, 0n);
  const employerExact = [...lines.values()].reduce((sum, l) => sum + l.employer, 0n);
  // Taxable: net of contributions, plus the non-deductible CSG/CRDS and the employer's health plan (not its provident insurance).
  const netTaxable = gross - employeeExact + csgNonDeductible + (intermittent ? 0n : HEALTH_PLAN_ER);
  const taxableCents = cents(netTaxable);
  let pasBase = taxableCents;
  let pasRate: bigint;
  if (c.employee.pas_rate !== null) pasRate = pct(c.employee.pas_rate);
  else {
    if (c.twoMonthsAtMost) pasBase = max(taxableCents - SHORT_CONTRACT_ALLOWANCE / CENT, 0n);
    pasRate = NEUTRAL_GRID.find(([bound]) => bound === null || pasBase * CENT < bound)![1];
  }
  return { gross, lines, netTaxable, pasRate, pasBase, employerCost: gross + employerExact, rgduCoefficient };
}

// ——— What the engine gives and the law does not: asserted as the law says, marked todo ———
// Four defects of the model's withholding found here are corrected in src/payroll/model-corrections.ts
// (the short-contract allowance per month, the monthly withholding to the cent, the provident
// contributions out of the taxable net, the journalists' allowance for journalists only).
const SHORT_ALLOWANCE_SMIC =
  'the short-contract allowance is half the month\u2019s net SMIC: 748 € as published for 2026 (Légisocial, January SMIC), the model\u2019s 751 € on its SMIC of December (12,31 € since June 2026); which SMIC of the year applies was not found';
const ENGINE_DIFFERS: Record<string, string> = {
  '5:withholding': `${SHORT_ALLOWANCE_SMIC}: 22,34 € against 22,38 €`,
  '5:net paid': `follows the withholding: ${SHORT_ALLOWANCE_SMIC}`,
};

// ——— The tests ———
let model: PayrollModel;
before(() => {
  model = compiledModel(PAYSLIP_READS);
});

const payslips = new Map<string, ComputedPayslip>();
function servicePayslip(c: Case): ComputedPayslip {
  let payslip = payslips.get(c.id);
  if (!payslip) {
    const pay = monthPay(c.contract, PERIOD);
    assert.ok(!('skip' in pay));
    payslip = computePayslip(model, situationFor(PERIOD, c.org, c.employee, pay));
    payslips.set(c.id, payslip);
  }
  return payslip;
}
/** The withholding: its base (to the cent, less the short-contract allowance) × the rate, half-up to the cent. */
const withheld = (l: LawPayslip) => cents((l.pasBase * CENT * l.pasRate) / RATE_ONE);
const check = (c: Case, key: string) => (ENGINE_DIFFERS[`${c.id}:${key}`] ? { todo: ENGINE_DIFFERS[`${c.id}:${key}`] } : {});
const short = (code: string) => code.replace(/^salarié \. (cotisations|régimes spécifiques|convention collective) \. /, '');

describe('reference payslips of December 2026, computed from the law\u2019s published figures', () => {
  it('should use the figures of the law as published (a guard on the table above)', () => {
    assert.equal(money(cents(PSS_HOURLY * ARTIST_HOURS_PER_DAY)), '360.00');
    assert.equal(money(cents((SMIC_HOURLY_JANUARY_2026 * 1820n) / 12n)), '1823.03');
    assert.equal(rateText((VIEILLESSE_PLAF_ER * ARTIST_SHARE) / 100n), '5.985');
    assert.equal(rateText(times(TAXE_APPRENTISSAGE_INTERMITTENT_BASE, TAXE_APPRENTISSAGE)), '0.748');
  });

  for (const c of CASES) {
    describe(`case ${c.id}: ${c.why}`, () => {
      const law = () => lawPayslip(c);

      it('should have exactly the law\u2019s lines', check(c, 'lines'), () => {
        const ours = servicePayslip(c)
          .lines.map((l) => short(l.code))
          .sort();
        assert.deepEqual(ours, [...law().lines.keys()].map(short).sort());
      });

      for (const [code, line] of lawPayslip(c).lines) {
        it(`${short(code)}: ${money(cents(line.employee))} / ${money(cents(line.employer))} to ${line.organism}`, check(c, short(code)), () => {
          const got = servicePayslip(c).lines.find((l) => l.code === code);
          assert.ok(got, `${code} is missing`);
          assert.deepEqual(
            { employee: got.employee_amount, employer: got.employer_amount, organism: got.organism },
            { employee: money(cents(line.employee)), employer: money(cents(line.employer)), organism: line.organism },
          );
          if (line.employeeRate !== undefined) assert.equal(got.employee_rate, rateText(line.employeeRate), 'employee rate');
          if (line.employerRate !== undefined) assert.equal(got.employer_rate, rateText(line.employerRate), 'employer rate');
        });
      }

      it('should add up: contributions, net before tax, employer cost', check(c, 'totals'), () => {
        const l = law();
        const p = servicePayslip(c);
        const employee = [...l.lines.values()].reduce((s, x) => s + cents(x.employee), 0n);
        const employer = [...l.lines.values()].reduce((s, x) => s + cents(x.employer), 0n);
        assert.deepEqual(
          {
            gross: p.gross,
            employee: p.employee_contributions,
            employer: p.employer_contributions,
            net_before_tax: p.net_before_tax,
            employer_cost: p.employer_cost,
          },
          {
            gross: money(cents(l.gross)),
            employee: money(employee),
            employer: money(employer),
            net_before_tax: money(cents(l.gross) - employee),
            employer_cost: money(cents(l.employerCost)),
          },
        );
      });

      it('should tax the net the law taxes: net, non-deductible CSG/CRDS, the employer\u2019s health plan', check(c, 'net taxable'), () => {
        assert.equal(servicePayslip(c).net_taxable, money(cents(law().netTaxable)));
      });

      it('should withhold the rate of the law on its base', check(c, 'withholding'), () => {
        const l = law();
        const p = servicePayslip(c);
        assert.deepEqual({ pas_rate: p.pas_rate, pas_amount: p.pas_amount }, { pas_rate: rateText(l.pasRate), pas_amount: money(withheld(l)) });
      });

      it('should pay the net before tax less the withholding', check(c, 'net paid'), () => {
        const l = law();
        const employee = [...l.lines.values()].reduce((s, x) => s + cents(x.employee), 0n);
        assert.equal(servicePayslip(c).net_to_pay, money(cents(l.gross) - employee - withheld(l)));
      });
    });
  }

  describe('what an intermittent\u2019s payslip carries and a CDI\u2019s does not', () => {
    it('should charge the intermittents\u2019 own contributions and nothing of the general scheme they are exempt from', () => {
      for (const c of CASES.filter((x) => x.contract.kind === 'CDDU')) {
        const p = servicePayslip(c);
        const line = (code: string) => p.lines.find((l) => l.code === code);
        const base = eur(p.lines.find((l) => l.code === `${C} . ATMP`)!.base);
        const gross = eur(p.gross);
        // Unemployment 2,40 % / 5 % on the gross; training 2 % to URSSAF and 0,10 % to Afdas; Congés Spectacles 15,50 %.
        assert.deepEqual([line(`${I} . chômage spécifique`)?.employee_rate, line(`${I} . chômage spécifique`)?.employer_rate], ['2.4', '5'], c.id);
        assert.deepEqual(
          [line(`${C} . formation professionnelle`)?.employer_amount, line(`${C} . formation professionnelle`)?.organism],
          [money(cents(times(base, FORMATION_INTERMITTENT))), 'URSSAF'],
          c.id,
        );
        assert.equal(line(`${I} . formation professionnelle conventionnelle`)?.organism, 'AFDAS', c.id);
        assert.equal(line(`${I} . caisse des congés spectacle`)?.employer_amount, money(cents(times(gross, CONGES_SPECTACLES))), c.id);
        // CASC-SVP 0,50 % on the capped pay; apprenticeship tax on 110 %.
        assert.equal(line(`${SVP} . CASC`)?.employer_amount, money(cents(times(min(gross, PSS), CASC_SVP))), c.id);
        assert.equal(
          line(`${C} . taxe d'apprentissage`)?.employer_amount,
          money(cents(times(times(base, TAXE_APPRENTISSAGE_INTERMITTENT_BASE), TAXE_APPRENTISSAGE))),
          c.id,
        );
        // No CPF-CDD, no company health plan.
        assert.equal(line(`${C} . CPF CDD`), undefined, c.id);
        assert.equal(line(`${C} . prévoyances . santé`), undefined, c.id);
      }
    });

    it('should apply the short-engagement ceiling of 360 € a day under five days only', () => {
      const capped = (id: string) =>
        servicePayslip(CASES.find((c) => c.id === id)!).lines.find((l) => l.code === `${C} . vieillesse . plafonnée`)!.employee_amount;
      // 4,83 % of 360 €, of 3 × 360 €, then of the whole 2 500 € (the month's ceiling).
      assert.deepEqual([capped('1'), capped('2'), capped('3')], ['17.39', '52.16', '120.75']);
    });

    it('should reduce a technician\u2019s contributions by the RGDU of the hours paid, × 100/90', () => {
      // 40 hours × 12,31 €: coefficient (0,02 + 0,3781 × [½ (3 × 492,40 / 900 − 1)]^1,75) × 100/90 = 0,0796.
      assert.equal(lawPayslip(CASES.find((c) => c.id === '6')!).rgduCoefficient, 0.0796);
      assert.equal(servicePayslip(CASES.find((c) => c.id === '6')!).lines.find((l) => l.code === `${C} . exonérations`)?.employer_amount, '-71.64');
    });

    it('should refuse an artist\u2019s flat deduction that the full-time Smic floor would bound (NotComputable)', () => {
      // 2 000 € × 82 % = 1 640 €, under the full-time Smic of 1 867,02 €: the model's floor would decide.
      const c = CASES.find((x) => x.id === '5')!;
      const pay = monthPay(cddu('2026-12-07', '2026-12-11', 5, '400.00', 7), PERIOD);
      assert.ok(!('skip' in pay));
      assert.ok(times(eur(pay.gross), RATE_ONE - DFS_ARTISTE_DRAMATIQUE) < FULL_TIME_SMIC);
      assert.throws(() => computePayslip(model, situationFor(PERIOD, c.org, c.employee, pay)), NotComputable);
    });
  });
});
