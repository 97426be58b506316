/** How `sendCsv` writes cells: formulas neutralised, and quoted wherever `;` or `,` readers would split them. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { sendCsv } from '../../src/format/csv.ts';

async function csvOf(t: { after(fn: () => unknown): void }, names: string[]): Promise<string[]> {
  const app = Fastify();
  app.get('/x.csv', (_request, reply) =>
    sendCsv(reply, {
      filename: 'noms.csv',
      columns: [
        { header: 'Nom', text: (row: { n: string }) => row.n },
        { header: 'Montant', amount: () => '-14.40' },
      ],
      read: async () => ({ items: names.map((n) => ({ n })), next_cursor: null }),
    }),
  );
  t.after(() => app.close());
  const res = await app.inject({ method: 'GET', url: '/x.csv' });
  return res.body.replace(/^\ufeff/, '').split('\r\n');
}

describe('CSV cells', () => {
  it('should quote a cell with a comma (and a formula after it), a semicolon, a quote or a line break, and neutralise a formula at the start', async (t) => {
    const lines = await csvOf(t, ['Dupont,=1+1', 'Martin;Paul', 'Le "Grand"', 'a\nb', '=1+1', '-2', 'Lefèvre']);
    assert.deepEqual(lines, [
      'Nom;Montant',
      '"Dupont,=1+1";-14,40',
      '"Martin;Paul";-14,40',
      '"Le ""Grand""";-14,40',
      '"a\nb";-14,40',
      "'=1+1;-14,40",
      "'-2;-14,40",
      'Lefèvre;-14,40',
      '',
    ]);
  });
});
