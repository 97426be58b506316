/** The PDF renderer: French text as a reader gets it (pdf.js, through unpdf), and off the event loop. */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { closeRenderers, generatingPdf, renderPdf } from '../../src/pdf/render.ts';
import renderInThisThread, { fontFor } from '../../src/pdf/pdf.worker.ts';
import { a4Document, dataTable } from '../../src/pdf/blocks.ts';
import { sampleDocument } from './sample.ts';
import { pdfText } from '../support/documents.ts';
import { childProcessesRunning, SCHED_IDLE, threadPolicies } from '../support/processes.ts';

const chrtWorks = process.platform === 'linux' && spawnSync('chrt', ['--idle', '0', 'true']).status === 0;

after(() => closeRenderers());

describe('renderPdf', () => {
  it('should render a French A4 document whose text reads back, accents, € and amounts included', async () => {
    const pdf = await renderPdf(sampleDocument());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    // Every run of white space, the no-break spaces of amounts included, reads as one space.
    const text = await pdfText(pdf);
    for (const expected of [
      'Contrat de travail à durée déterminée d’usage',
      'N° C-2027-000012',
      'EMPLOYEUR',
      'SALARIÉ',
      'Théâtre du Soleil',
      'Zoé Lefèvre',
      'Code employeur : TDS001',
      '12 rue de l’Éclair, 75011 Paris',
      'Emploi : Comédienne',
      'Objet : « Les Fourberies de Scapin » — création',
      'Période : du 10/03/2027 au 12/03/2027',
      'Répétition',
      'Représentation',
      '234,50 €',
      '1 000,00 €',
      'Total brut',
      '1 234,50 €',
      'Fait à Paris, le 01/03/2027, en 2 exemplaires.',
      'L’employeur',
      'La salariée',
      'Payroll, opérateur de paie — contrat C-2027-000012',
      'Page 1 / 1',
    ]) {
      assert.ok(text.includes(expected), `"${expected}" in:\n${text}`);
    }
    assert.ok(!text.includes('Vide'), 'an empty field is left out');
    // A row of the table reads in order, its cells side by side.
    assert.match(text, /10\/03\/2027 Répétition 1 234,50 € 12\/03\/2027 Représentation 1 1 000,00 €/);
    assert.match(text, /Total brut 1 234,50 €/);
  });

  it('should set the words beyond WinAnsi in an embedded font, never garbled, the rest staying in Helvetica', async () => {
    const names = 'Łukasz Dvořák, Ірина Шевченко, Nguyễn';
    const doc = a4Document({ title: 't', author: 'a', content: [{ text: names }] });
    assert.equal(fontFor(doc), 'Helvetica');
    assert.equal(fontFor({ ...doc, embedFonts: true }), 'Roboto');
    const pdf = await renderPdf(doc);
    assert.ok((await pdfText(pdf)).includes(names));
    assert.match(pdf.toString('latin1'), /\/BaseFont \/[A-Z]{6}\+Roboto-Regular/);
  });

  it('should draw Japanese, Chinese, Arabic and Hebrew names in their Noto fallbacks, in PDF/A documents too', async () => {
    for (const embedFonts of [false, true]) {
      const doc = a4Document({
        title: 't',
        author: 'a',
        embedFonts,
        content: [{ text: 'Salarié : 山田 太郎, 王小明' }, { text: 'عبد الله', bold: true }, 'דוד כהן'],
      });
      const pdf = await renderPdf(doc);
      const text = await pdfText(pdf);
      assert.ok(text.includes('Salarié : 山田 太郎, 王小明'), text);
      for (const font of ['NotoSansHans-Regular', 'NotoNaskhArabic-Bold', 'NotoSansHebrew']) {
        assert.match(pdf.toString('latin1'), new RegExp(`/BaseFont /[A-Z]{6}\\+${font}`), font);
      }
    }
  });

  it('should number pages on a long table', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => [`${i + 1}`, 'Représentation']);
    const pdf = await renderPdf(
      a4Document({
        title: 't',
        author: 'a',
        content: [
          dataTable(
            [
              { header: 'N°', width: 40 },
              { header: 'Nature', width: '*' },
            ],
            rows,
          ),
        ],
      }),
    );
    const text = await pdfText(pdf);
    assert.match(text, /Page 1 \/ 3/);
    assert.match(text, /Page 3 \/ 3/);
    // The header row repeats on every page.
    assert.equal(text.match(/N° Nature/g)?.length, 3);
  });

  it('should leave the event loop free while it renders (in a child process)', async () => {
    await renderPdf(sampleDocument()); // the pool's process is started
    /** How many turns the event loop made while `work` ran. */
    async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
      let turns = 0;
      let running = true;
      const spin = () => {
        turns += 1;
        if (running) setImmediate(spin);
      };
      setImmediate(spin);
      try {
        await work();
      } finally {
        running = false;
      }
      return turns;
    }
    // pdfmake lays a document out in one synchronous run: rendered here, the loop never turns.
    // (A fresh document each time: pdfmake writes into the definition it is given.)
    const inThread = await turnsDuring(() => renderInThisThread(sampleDocument()));
    const pooled = await turnsDuring(() => Promise.all([renderPdf(sampleDocument()), renderPdf(sampleDocument())]));
    assert.ok(inThread <= 1, `${inThread} turns while rendering in this thread`);
    assert.ok(pooled > 100, `${pooled} turns while the pool rendered`);
  });

  it('should render in processes whose every thread gives way to every other thread (SCHED_IDLE), this process untouched', {
    skip: !chrtWorks && 'chrt --idle is not available here',
  }, async () => {
    await Promise.all([renderPdf(sampleDocument()), renderPdf(sampleDocument())]);
    const renderers = childProcessesRunning('pdf.process');
    assert.ok(renderers.length >= 1, 'a rendering process');
    for (const pid of renderers) {
      const all = threadPolicies(pid);
      assert.ok(all.length > 1, 'a node process has several threads');
      assert.deepEqual(
        all,
        all.map(() => SCHED_IDLE),
        `process ${pid}`,
      );
    }
    assert.ok(!threadPolicies(process.pid).includes(SCHED_IDLE), 'no thread of this process is lowered');
  });

  it('should stop its processes on closeRenderers, and start them again for the next PDF', {
    skip: process.platform !== 'linux' && 'reads /proc',
  }, async () => {
    await renderPdf(sampleDocument());
    assert.ok(childProcessesRunning('pdf.process').length >= 1);
    await closeRenderers();
    assert.deepEqual(childProcessesRunning('pdf.process'), []);
    assert.equal((await renderPdf(sampleDocument())).subarray(0, 5).toString(), '%PDF-');
  });
});

describe('generatingPdf', () => {
  it('should let in as many generations at once as there are renderers (one a core), the next when one ends, failed ones included', async () => {
    const slots = os.availableParallelism();
    const started: number[] = [];
    const finish: Array<(ok: boolean) => void> = [];
    const generations = Array.from({ length: slots + 2 }, (_, n) =>
      generatingPdf(() => {
        started.push(n);
        return new Promise<number>((resolve, reject) => finish.push((ok) => (ok ? resolve(n) : reject(new Error(`generation ${n}`)))));
      }).catch((error: Error) => error.message),
    );
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    assert.deepEqual(
      started,
      Array.from({ length: slots }, (_, n) => n),
      'the first ones, no more',
    );
    finish[0]!(false);
    await settle();
    assert.deepEqual(started.slice(slots), [slots], 'a failed generation gives its slot to the next');
    finish[1]!(true);
    await settle();
    assert.deepEqual(started.slice(slots), [slots, slots + 1]);
    for (const done of finish.slice(2)) done(true);
    assert.deepEqual(await Promise.all(generations), ['generation 0', ...Array.from({ length: slots + 1 }, (_, n) => n + 1)]);
  });
});
