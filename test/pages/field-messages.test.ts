/**
 * "errors that contradict their field": the one mapping from an API refusal to what a
 * page says (what was typed, in the field's format), the API naming the line it refuses
 * (`field: "dates[1].date"`), and the server-rendered filters showing the message next to the
 * field refused (`aria-invalid`, `aria-describedby` → the error box).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dateProblem, fieldMessage, periodProblem, periodText } from '../../src/pages/field-messages.ts';
import { filterFieldError } from '../../src/pages/field-messages.ts';
import { setup } from '../payslips/support.ts';

const API_DATE = 'Date invalide : format AAAA-MM-JJ, dans la période du contrat.';

describe('field messages (src/pages/assets/field-messages.js)', () => {
  it('should say what is wrong with a date as typed, in JJ/MM/AAAA', () => {
    assert.equal(dateProblem('31/02/2026'), "Le 31/02/2026 n'existe pas : saisissez une date au format JJ/MM/AAAA.");
    assert.equal(dateProblem('2026-02-31'), "Le 2026-02-31 n'existe pas : saisissez une date au format JJ/MM/AAAA.");
    assert.equal(dateProblem('demain'), "« demain » n'est pas une date au format JJ/MM/AAAA (par exemple 15/03/2027).");
    assert.equal(dateProblem('12/03/1850'), "L'année de 12/03/1850 est trop ancienne : saisissez une date au format JJ/MM/AAAA, en 1900 ou après.");
    assert.equal(dateProblem(' '), 'Indiquez une date au format JJ/MM/AAAA.');
    assert.equal(dateProblem('29/02/2028'), '', 'a leap day');
    assert.equal(dateProblem('1/3/2027'), '');
    assert.equal(dateProblem('2027-03-01'), '', "the API's form is a date too");
  });

  it('should say what is wrong with a period as typed, in MM/AAAA', () => {
    assert.equal(periodProblem('13/2027'), "13/2027 n'existe pas : le mois va de 01 à 12. Saisissez une période au format MM/AAAA.");
    assert.equal(periodProblem('2027-13'), "2027-13 n'existe pas : le mois va de 01 à 12. Saisissez une période au format MM/AAAA.");
    assert.equal(periodProblem('mars 2027'), "« mars 2027 » n'est pas une période au format MM/AAAA (par exemple 03/2027).");
    assert.equal(periodProblem('03/9999'), "L'année de 03/9999 n'est pas acceptée (de 1900 à 2999) : saisissez une période au format MM/AAAA.");
    assert.equal(periodProblem(''), 'Indiquez une période au format MM/AAAA (par exemple 03/2027).');
    assert.equal(periodProblem('3/2027'), '');
    assert.equal(periodProblem('2027-03'), '');
  });

  it("should say a contract's date outside its period, with the period in JJ/MM/AAAA", () => {
    const period = { start_date: '2027-03-01', end_date: '2027-03-31' };
    assert.equal(periodText(period), 'du 01/03/2027 au 31/03/2027');
    assert.equal(periodText({ start_date: '2027-03-01', end_date: null }), 'à partir du 01/03/2027');
    assert.equal(
      fieldMessage({ code: 'invalid_date', message: API_DATE, kind: 'contract_date', typed: '15/4/2027', period }),
      'Le 15/04/2027 est en dehors de la période du contrat (du 01/03/2027 au 31/03/2027) : choisissez une date dans cette période.',
    );
    assert.equal(
      fieldMessage({ code: 'invalid_date', message: API_DATE, kind: 'contract_date', typed: '31/02/2027', period }),
      "Le 31/02/2027 n'existe pas : saisissez une date au format JJ/MM/AAAA.",
    );
    assert.equal(
      fieldMessage({ code: 'missing_date', message: 'La date est requis(e).', kind: 'contract_date', typed: '', period }),
      'Indiquez une date au format JJ/MM/AAAA.',
    );
    // Within the period: nothing better to say than the API.
    assert.equal(fieldMessage({ code: 'invalid_date', message: API_DATE, kind: 'contract_date', typed: '15/03/2027', period }), API_DATE);
  });

  it('should say an execution date is in the past, or too far ahead', () => {
    const refusal = {
      code: 'invalid_execution_date',
      message: "Date d'exécution invalide : AAAA-MM-JJ, aujourd'hui ou plus tard.",
      kind: 'execution_date' as const,
      today: '2027-03-10',
    };
    assert.equal(
      fieldMessage({ ...refusal, typed: '09/03/2027' }),
      "La date d'exécution est passée : choisissez aujourd'hui (10/03/2027) ou une date à venir, au format JJ/MM/AAAA.",
    );
    assert.equal(
      fieldMessage({ ...refusal, typed: '12/03/2028' }),
      "La date d'exécution est trop lointaine : choisissez une date jusqu'au 10/03/2028 au plus tard, au format JJ/MM/AAAA.",
    );
    assert.equal(fieldMessage({ ...refusal, typed: '30/02/2027' }), "Le 30/02/2027 n'existe pas : saisissez une date au format JJ/MM/AAAA.");
    assert.equal(fieldMessage({ ...refusal, code: 'missing_execution_date', typed: '' }), "Indiquez la date d'exécution au format JJ/MM/AAAA.");
  });

  it('should keep the API message for a field that takes no typed date or period', () => {
    assert.equal(fieldMessage({ code: 'invalid_status', message: "Le statut n'est pas valide.", kind: 'other', typed: 'x' }), "Le statut n'est pas valide.");
  });

  it("should place a list's refusal on the filter the API names, else on the one its code names, else nowhere", () => {
    const fields = {
      from: { kind: 'date' as const, typed: '31/02/2026', label: 'En cours à partir du' },
      period: { kind: 'period' as const, typed: '13/2027', label: 'Période' },
    };
    assert.deepEqual(filterFieldError({ code: 'invalid_date', field: 'from', message: API_DATE }, fields), {
      field: 'from',
      message: "Le 31/02/2026 n'existe pas : saisissez une date au format JJ/MM/AAAA.",
      summary: 'Liste non affichée : corrigez le filtre « En cours à partir du ».',
    });
    assert.equal(
      filterFieldError({ code: 'invalid_period', message: 'Période invalide : format AAAA-MM attendu.' }, fields)?.message,
      "13/2027 n'existe pas : le mois va de 01 à 12. Saisissez une période au format MM/AAAA.",
    );
    assert.equal(filterFieldError({ code: 'invalid_cursor', message: 'Curseur de pagination invalide.' }, fields), null);
    assert.equal(filterFieldError({ code: 'invalid_constructor', message: '?' }, fields), null, 'no prototype key is a field');
    assert.equal(filterFieldError(null, fields), null);
  });
});

describe('the API names the input it refuses (field)', () => {
  it("should answer a contract's date outside its period with the line (dates[1].date) and the period", async (t) => {
    const { call, agent, helene } = await setup(t);
    const contract = { employee_id: helene, kind: 'CDDU', show_title: 'Les Misérables', start_date: '2027-03-01', end_date: '2027-03-31' };
    const line = (date: string) => ({ date, nature: 'representation', quantity: 1, amount: '100' });
    const outside = await call(agent, 'POST', '/api/contrats', { ...contract, dates: [line('2027-03-02'), line('2027-04-15')] });
    assert.equal(outside.statusCode, 400);
    assert.deepEqual(outside.json(), {
      error: 'invalid_date',
      message: 'La date 2027-04-15 est en dehors de la période du contrat (du 2027-03-01 au 2027-03-31).',
      field: 'dates[1].date',
    });
    const unreal = await call(agent, 'POST', '/api/contrats', { ...contract, dates: [line('2027-02-31')] });
    assert.deepEqual(unreal.json(), {
      error: 'invalid_date',
      message: 'Date invalide : format AAAA-MM-JJ, dans la période du contrat.',
      field: 'dates[0].date',
    });
    const amount = await call(agent, 'POST', '/api/contrats', { ...contract, dates: [line('2027-03-02'), { ...line('2027-03-03'), amount: '-1' }] });
    assert.deepEqual([amount.json().error, amount.json().field], ['invalid_amount', 'dates[1].amount']);
    const start = await call(agent, 'POST', '/api/contrats', { ...contract, start_date: '2027-02-30' });
    assert.deepEqual([start.json().error, start.json().field], ['invalid_date', 'start_date']);
    const filter = await call(agent, 'GET', '/api/contrats?to=2026-02-31');
    assert.deepEqual(filter.json(), { error: 'invalid_date', message: 'Date invalide : format AAAA-MM-JJ, dans la période du contrat.', field: 'to' });
  });
});

describe('the filters show a refusal next to their field', () => {
  /** The error box of `id`, its text, and whether the field points at it and is marked invalid. */
  function placed(body: string, id: string): { message: string | undefined; invalid: boolean } {
    const input = new RegExp(`<(?:input|select) id="${id}"[^>]*>`).exec(body)?.[0] ?? '';
    const message = new RegExp(`<p id="${id}-error" class="field-error">([^<]*)</p>`).exec(body)?.[1];
    return { message, invalid: input.includes(`${id}-error`) && input.includes('aria-invalid="true"') };
  }
  const apostrophe = (text: string | undefined) => text?.replaceAll('&#39;', "'");

  it('should answer /contrats?from=31/02/2026 next to "En cours à partir du", in JJ/MM/AAAA', async (t) => {
    const { call, agent, staff } = await setup(t);
    const res = await call(agent, 'GET', '/contrats?from=31/02/2026');
    assert.equal(res.statusCode, 400);
    const from = placed(res.body, 'filter-from');
    assert.equal(apostrophe(from.message), "Le 31/02/2026 n'existe pas : saisissez une date au format JJ/MM/AAAA.");
    assert.ok(from.invalid, 'aria-describedby and aria-invalid on the field');
    assert.ok(res.body.includes('value="31/02/2026"'), 'what was typed stays in the field');
    assert.match(res.body, /role="alert">Liste non affichée : corrigez le filtre « En cours à partir du »\.<\/p>/);
    assert.ok(!res.body.includes('AAAA-MM-JJ'), 'no word of the API format');
    assert.equal(placed(res.body, 'filter-to').message, undefined, 'the other date is not marked');

    const staffGrid = await call(staff, 'GET', '/staff/contrats?to=le+31');
    assert.equal(staffGrid.statusCode, 400);
    assert.equal(apostrophe(placed(staffGrid.body, 'filter-to').message), "« le 31 » n'est pas une date au format JJ/MM/AAAA (par exemple 15/03/2027).");
  });

  it('should answer a wrong period in MM/AAAA next to the field on /paie, /staff/virements, /staff/cotisations and /staff/paie', async (t) => {
    const { call, agent, staff, soleil } = await setup(t);
    const paie = await call(agent, 'GET', '/paie?period=2027-13');
    assert.equal(paie.statusCode, 400);
    const period = placed(paie.body, 'filter-period');
    assert.equal(apostrophe(period.message), "2027-13 n'existe pas : le mois va de 01 à 12. Saisissez une période au format MM/AAAA.");
    assert.ok(period.invalid);
    assert.match(paie.body, /aria-describedby="filter-period-hint filter-period-error"/);
    assert.ok(!paie.body.includes('AAAA-MM'), 'no word of the API format');

    const virements = await call(staff, 'GET', '/staff/virements?period=03-2027');
    assert.equal(virements.statusCode, 400);
    assert.equal(placed(virements.body, 'filter-period').message, '« 03-2027 » n&#39;est pas une période au format MM/AAAA (par exemple 03/2027).');
    assert.ok(placed(virements.body, 'filter-period').invalid);

    const cotisations = await call(staff, 'GET', '/staff/cotisations?period=00/2027');
    assert.equal(cotisations.statusCode, 400);
    assert.equal(
      apostrophe(placed(cotisations.body, 'filter-period').message),
      "00/2027 n'existe pas : le mois va de 01 à 12. Saisissez une période au format MM/AAAA.",
    );

    const staffPaie = await call(staff, 'GET', `/staff/paie?org_id=${soleil}&period=03/1850`);
    assert.equal(staffPaie.statusCode, 400);
    assert.equal(
      apostrophe(placed(staffPaie.body, 'paie-period').message),
      "L'année de 03/1850 n'est pas acceptée (de 1900 à 2999) : saisissez une période au format MM/AAAA.",
    );
  });

  it('should still show a refusal that no field made (an old cursor) above the list', async (t) => {
    const { call, agent } = await setup(t);
    const res = await call(agent, 'GET', '/paie?cursor=%25%25');
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /role="alert">Curseur de pagination invalide : reprenez la liste depuis le début\.<\/p>/);
    assert.ok(!res.body.includes('aria-invalid'), 'no field is marked');
  });
});
