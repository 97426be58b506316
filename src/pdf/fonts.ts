/**
 * The fonts of the PDF renderer and what they can draw, shared by the rendering processes
 * (`pdf.worker.ts`: which font sets each run of text) and by the employees' rules (a name the
 * PDFs cannot draw is refused at input).
 *
 * A document is set in Helvetica (standard font, WinAnsi), or in Roboto when every font must be
 * embedded (PDF/A); a word the main font lacks a character of is set in the first fallback that
 * has it: Roboto (Latin, Greek, Cyrillic), Noto Sans CJK SC (the whole CJK Unified Ideographs
 * block and extension A, kana), Noto Naskh Arabic, Noto Sans Hebrew. fontkit (pdfkit's) shapes
 * Arabic and lays out each right-to-left word right to left; the words of a right-to-left run are
 * put in visual order here (`fallbackRuns`), as a bidi algorithm would on a left-to-right line.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** A font file of an npm package whose `exports` only expose its index: found beside it. */
function packageFont(pkg: string, file: string): string {
  return path.join(path.dirname(require.resolve(pkg)), '..', 'fonts', file);
}
const roboto = (style: string) => require.resolve(`pdfmake/fonts/Roboto/Roboto-${style}.ttf`);

export interface FontFiles {
  normal: string;
  bold: string;
  italics: string;
  bolditalics: string;
}

const two = (regular: string, bold: string): FontFiles => ({ normal: regular, bold, italics: regular, bolditalics: bold });

export const EMBEDDED_FONTS = {
  Roboto: { normal: roboto('Regular'), bold: roboto('Medium'), italics: roboto('Italic'), bolditalics: roboto('MediumItalic') },
  NotoSansCJK: two(packageFont('@embedpdf/fonts-sc', 'NotoSansHans-Regular.otf'), packageFont('@embedpdf/fonts-sc', 'NotoSansHans-Bold.otf')),
  NotoNaskhArabic: two(packageFont('@embedpdf/fonts-arabic', 'NotoNaskhArabic-Regular.ttf'), packageFont('@embedpdf/fonts-arabic', 'NotoNaskhArabic-Bold.ttf')),
  NotoSansHebrew: two(packageFont('@embedpdf/fonts-hebrew', 'NotoSansHebrew-Regular.ttf'), packageFont('@embedpdf/fonts-hebrew', 'NotoSansHebrew-Bold.ttf')),
} satisfies Record<string, FontFiles>;

export type EmbeddedFont = keyof typeof EMBEDDED_FONTS;

/** The fallbacks of Roboto, in the order they are tried for a word Roboto lacks a character of. */
export const FALLBACK_FONTS = ['NotoSansCJK', 'NotoNaskhArabic', 'NotoSansHebrew'] as const satisfies readonly EmbeddedFont[];
/** Helvetica's: Roboto first (Latin, Greek, Cyrillic beyond WinAnsi), then Roboto's. */
export const HELVETICA_FALLBACKS = ['Roboto', ...FALLBACK_FONTS] as const satisfies readonly EmbeddedFont[];
const RIGHT_TO_LEFT = new Set<string>(['NotoNaskhArabic', 'NotoSansHebrew']);

/** The writing systems a name may use, as the README and the refusal say them. */
export const DRAWABLE_SCRIPTS = 'latin, grec, cyrillique, chinois, japonais (kanji et kana), arabe, hébreu';

/** A character that WinAnsi (Latin-1 and the 0x80-0x9F extras) cannot write: Helvetica cannot draw it. */
export const OUTSIDE_WINANSI = /[^\t\n\r\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/;

interface FontkitFont {
  characterSet: number[];
}
// pdfkit's own fontkit: the one that reads these files when rendering. Loaded at the first
// coverage asked (about 0.35 s): a server or a command that checks no name never loads it.
let fontkit: { openSync(file: string): FontkitFont } | undefined;

const coverages = new Map<EmbeddedFont, ReadonlySet<number>>();

/**
 * The code points a font draws (its regular file's cmap; the bold files have the same), read
 * once per process when first needed: the CJK file is 8 MB and takes ~80 ms.
 */
export function coverage(font: EmbeddedFont): ReadonlySet<number> {
  let set = coverages.get(font);
  if (!set) {
    fontkit ??= createRequire(require.resolve('pdfkit'))('fontkit') as { openSync(file: string): FontkitFont };
    set = new Set(fontkit.openSync(EMBEDDED_FONTS[font].normal).characterSet);
    coverages.set(font, set);
  }
  return set;
}

/** Characters that draw nothing and need no glyph (line breaks, tabs). */
const INVISIBLE = /[\t\n\r]/;

/** Whether every character of `text` is drawn by Roboto or a fallback (a name the PDFs can write). */
export function isDrawable(text: string): boolean {
  for (const char of text) {
    if (INVISIBLE.test(char)) continue;
    const cp = char.codePointAt(0)!;
    if (!coverage('Roboto').has(cp) && !FALLBACK_FONTS.some((font) => coverage(font).has(cp))) return false;
  }
  return true;
}

export interface TextRun {
  text: string;
  /** Absent: the document's main font. */
  font?: EmbeddedFont;
}

/**
 * `text` cut into runs of one font each. A word the main font draws stays in it; another is set
 * whole in the first of `fallbacks` that draws all of it ("Dvořák" in Roboto, not "Dvo", "ř"
 * and "ák" in two fonts), else character by character in the first that draws each (else the
 * main font, which draws a box: a name stored before names were checked). A space stays in the
 * run it follows. The words of a right-to-left run come in reverse order, each alone (fontkit
 * reverses the glyphs of each), so that "عبد الله" reads right to left on the line; such a run is
 * not meant to wrap (names, labels).
 */
export function fallbackRuns(text: string, mainCovers: (cp: number) => boolean, fallbacks: readonly EmbeddedFont[]): TextRun[] {
  const runs: TextRun[] = [];
  const push = (part: string, font: EmbeddedFont | undefined) => {
    const last = runs.at(-1);
    if (last && last.font === font) last.text += part;
    else runs.push(font === undefined ? { text: part } : { text: part, font });
  };
  const codePoints = (word: string) => [...word].map((char) => char.codePointAt(0)!);
  for (const word of text.split(/(\s+)/)) {
    if (word === '') continue;
    const cps = codePoints(word);
    if (/^\s+$/.test(word) || cps.every(mainCovers)) {
      push(word, /^\s+$/.test(word) ? runs.at(-1)?.font : undefined);
      continue;
    }
    // Punctuation around the word stays in the main font, outside a right-to-left run ("عبد الله.").
    const [, lead = '', core = '', trail = ''] = /^([^\p{L}\p{M}\p{N}]*)(.*?)([^\p{L}\p{M}\p{N}]*)$/su.exec(word) ?? [];
    const coreCps = codePoints(core);
    const whole = fallbacks.find((font) => coreCps.every((cp) => coverage(font).has(cp)));
    if (whole && core !== '' && codePoints(lead + trail).every(mainCovers)) {
      if (lead) push(lead, undefined);
      push(core, whole);
      if (trail) push(trail, undefined);
      continue;
    }
    for (const char of word) {
      const cp = char.codePointAt(0)!;
      push(char, mainCovers(cp) ? undefined : fallbacks.find((font) => coverage(font).has(cp)));
    }
  }
  return runs.flatMap((run) => (run.font && RIGHT_TO_LEFT.has(run.font) ? visualOrder(run.text, run.font) : [run]));
}

/** A right-to-left run's words in visual order, the spaces between them kept as runs of their own. */
function visualOrder(text: string, font: EmbeddedFont): TextRun[] {
  const [, lead = '', core = '', trail = ''] = /^(\s*)(.*?)(\s*)$/su.exec(text) ?? [];
  const parts = core.split(/(\s+)/).reverse();
  return [
    ...(lead ? [{ text: lead }] : []),
    ...parts.filter((p) => p !== '').map((p) => (/^\s+$/.test(p) ? { text: p } : { text: p, font })),
    ...(trail ? [{ text: trail }] : []),
  ];
}
