/**
 * The chronology check of every invoice and credit note reads the last one issued under the
 * series lock (`lastIssued`): one probe of an index, whatever the number of invoices. Its order
 * once named the selected text `issue_date` rather than the column, which no index holds: every
 * invoice ever issued was read and sorted (100 ms a bulk at 185,000 invoices in the bench).
 * The plans are read with sequential scans disabled: the planner must then take an index, and a
 * Sort above it means the index does not give the order.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql } from 'kysely';
import { freshDatabase } from '../helper.ts';
import { createOrg } from '../support/fixtures.ts';
import { lastIssued, lastIssuedQuery } from '../../src/invoices/invoices.repository.ts';
import type { InvoiceKind } from '../../src/db/schema.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

describe('lastIssued', () => {
  it('should answer the latest issue date, then the highest number of that date, of each kind', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    const db = database.db;
    const org = await createOrg(db, 'Théâtre du Soleil');
    const row = (number: string, issue_date: string, kind: InvoiceKind, credited_invoice_id: string | null = null) => ({
      number,
      kind,
      org_id: org,
      invoice_type: 'prestation' as const,
      payment_method: 'virement' as const,
      period_label: '',
      issue_date,
      due_date: issue_date,
      lines: JSON.stringify([]),
      total_ht: '0.00',
      total_vat: '0.00',
      total_ttc: '0.00',
      credited_invoice_id,
      credit_reason: credited_invoice_id ? 'Erreur' : null,
    });
    assert.equal(await lastIssued(db), undefined);
    const { id } = await db
      .insertInto('invoices')
      .values(row('F-2026-000001', '2026-03-02', 'facture'))
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('invoices')
      .values([row('F-2026-000003', '2026-11-20', 'facture'), row('F-2026-000002', '2026-11-20', 'facture'), row('F-2025-000009', '2025-12-31', 'facture')])
      .execute();
    await db
      .insertInto('invoices')
      .values([row('A-2026-000001', '2026-04-01', 'avoir', id), row('A-2026-000002', '2026-04-01', 'avoir', id)])
      .execute();
    assert.deepEqual(await lastIssued(db), { number: 'F-2026-000003', issue_date: '2026-11-20' });
    assert.deepEqual(await lastIssued(db, 'facture'), { number: 'F-2026-000003', issue_date: '2026-11-20' });
    assert.deepEqual(await lastIssued(db, 'avoir'), { number: 'A-2026-000002', issue_date: '2026-04-01' });
  });

  for (const [kind, index] of [
    ['facture', 'invoices_issue_date_idx'],
    ['avoir', 'invoices_credit_notes_issue_date_idx'],
  ] as const) {
    it(`should read the last ${kind} from ${index}, without sorting`, async (t) => {
      const database = await freshDatabase();
      t.after(() => database.close());
      const plan = await database.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const query = lastIssuedQuery(kind).compile(trx);
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]));
        const text = rows[0]!['QUERY PLAN'];
        return ((typeof text === 'string' ? JSON.parse(text) : text) as Array<{ Plan: PlanNode }>)[0]!.Plan;
      });
      const nodes = nodesOf(plan);
      assert.deepEqual(
        nodes.filter((n) => n['Node Type'] === 'Sort'),
        [],
        JSON.stringify(plan),
      );
      assert.ok(
        nodes.some((n) => n['Node Type'].startsWith('Index') && n['Index Name'] === index),
        JSON.stringify(plan),
      );
    });
  }
});
