/** What the PDFs can draw (fonts.ts): the runs of one font each, right-to-left words in visual order, the names accepted. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { coverage, FALLBACK_FONTS, fallbackRuns, HELVETICA_FALLBACKS, isDrawable, OUTSIDE_WINANSI } from '../../src/pdf/fonts.ts';

const helvetica = (cp: number) => !OUTSIDE_WINANSI.test(String.fromCodePoint(cp));
const roboto = (cp: number) => coverage('Roboto').has(cp);

describe('fallbackRuns', () => {
  it('should leave a WinAnsi text whole, and set a word with another character whole in Roboto', () => {
    assert.deepEqual(fallbackRuns('Zoé Lefèvre, 1 234,50 €', helvetica, HELVETICA_FALLBACKS), [{ text: 'Zoé Lefèvre, 1 234,50 €' }]);
    assert.deepEqual(fallbackRuns('Antonín Dvořák (Prague)', helvetica, HELVETICA_FALLBACKS), [
      // A space stays in the run it follows.
      { text: 'Antonín ' },
      { text: 'Dvořák ', font: 'Roboto' },
      { text: '(Prague)' },
    ]);
  });
  it('should set CJK words in Noto Sans CJK, from Helvetica or Roboto', () => {
    assert.deepEqual(fallbackRuns('Nom : 山田 太郎.', helvetica, HELVETICA_FALLBACKS), [
      { text: 'Nom : ' },
      { text: '山田 太郎', font: 'NotoSansCJK' },
      { text: '.' },
    ]);
    assert.deepEqual(fallbackRuns('Łukasz 王', roboto, FALLBACK_FONTS), [{ text: 'Łukasz ' }, { text: '王', font: 'NotoSansCJK' }]);
  });
  it('should give the words of an Arabic or Hebrew run in visual order, the spaces between them apart', () => {
    assert.deepEqual(fallbackRuns('Ali عبد الله Dupont', helvetica, HELVETICA_FALLBACKS), [
      { text: 'Ali ' },
      { text: 'الله', font: 'NotoNaskhArabic' },
      { text: ' ' },
      { text: 'عبد', font: 'NotoNaskhArabic' },
      { text: ' ' },
      { text: 'Dupont' },
    ]);
    assert.deepEqual(fallbackRuns('דוד כהן', roboto, FALLBACK_FONTS), [
      { text: 'כהן', font: 'NotoSansHebrew' },
      { text: ' ' },
      { text: 'דוד', font: 'NotoSansHebrew' },
    ]);
  });
  it('should fall back character by character when no one font has a whole word, a box for what none has', () => {
    assert.deepEqual(fallbackRuns('A山ب', helvetica, HELVETICA_FALLBACKS), [
      { text: 'A' },
      { text: '山', font: 'NotoSansCJK' },
      { text: 'ب', font: 'NotoNaskhArabic' },
    ]);
    assert.deepEqual(fallbackRuns('민수', helvetica, HELVETICA_FALLBACKS), [{ text: '민수' }]);
  });
});

describe('isDrawable', () => {
  it('should accept Latin, Greek, Cyrillic, CJK ideographs and kana, Arabic and Hebrew', () => {
    for (const name of ['Zoé Lefèvre', 'Nguyễn Thị', 'Νίκος', 'Ірина', '山田 太郎', '王小明', 'すずき', 'عبد الله', 'דוד', "O'Brien-Smith"])
      assert.ok(isDrawable(name), name);
  });
  it('should refuse Hangul, Thai, Devanagari, Georgian and emoji (no font of the PDFs draws them)', () => {
    for (const name of ['김민수', 'สมชาย', 'राज', 'ნინო', 'Zoé 😀']) assert.ok(!isDrawable(name), name);
  });
});
