/**
 * Shared building blocks of the service's documents (the contract PDF, later the invoice): an A4
 * page with the house styles, a title, the parties, label/value fields, a table, totals and
 * signature blocks. Values arrive already formatted (amounts by `formatEuros`, dates by
 * `formatDateFr`), so every document writes them alike.
 */
import type { Content, ContentTable, StyleDictionary } from 'pdfmake/interfaces.js';
import type { PdfDocument } from './document.ts';

const STYLES: StyleDictionary = {
  title: { fontSize: 16, bold: true, alignment: 'center', margin: [0, 0, 0, 4] },
  subtitle: { fontSize: 10, alignment: 'center', color: '#444', margin: [0, 0, 0, 18] },
  heading: { fontSize: 11, bold: true, margin: [0, 14, 0, 6] },
  label: { bold: true },
  small: { fontSize: 8, color: '#555' },
  tableHeader: { bold: true },
  total: { bold: true, fontSize: 11 },
};

/** An A4 document with the house margins, font and styles. */
export function a4Document(options: { title: string; author: string; content: Content[]; pageFooter?: string; embedFonts?: boolean }): PdfDocument {
  return {
    pageSize: 'A4',
    pageMargins: [50, 50, 50, 60],
    info: { title: options.title, author: options.author, creator: 'payroll-access' },
    // The font is chosen by the renderer for the characters used (see pdf.worker.ts).
    defaultStyle: { fontSize: 10, lineHeight: 1.2 },
    styles: STYLES,
    content: options.content,
    ...(options.pageFooter === undefined ? {} : { pageFooter: options.pageFooter }),
    ...(options.embedFonts ? { embedFonts: true } : {}),
  };
}

export function documentTitle(title: string, subtitle?: string): Content[] {
  return subtitle === undefined
    ? [{ text: title, style: 'title', margin: [0, 0, 0, 18] }]
    : [
        { text: title, style: 'title' },
        { text: subtitle, style: 'subtitle' },
      ];
}

export function heading(text: string): Content {
  return { text, style: 'heading' };
}

export interface Party {
  /** "Employeur", "Salarié", "Vendeur"… */
  role: string;
  name: string;
  /** Address, identifiers… one per line; empty ones are left out. */
  lines: readonly string[];
}

/** The parties side by side. */
export function partiesBlock(parties: readonly Party[]): Content {
  return {
    columnGap: 20,
    columns: parties.map((party) => ({
      stack: [
        { text: party.role.toUpperCase(), style: 'small', margin: [0, 0, 0, 2] },
        { text: party.name, bold: true },
        ...party.lines.filter((line) => line !== '').map((line) => ({ text: line })),
      ],
    })),
    margin: [0, 0, 0, 12],
  };
}

/** Label / value lines ("Emploi : Comédien"); empty values are left out. */
export function fieldsBlock(fields: ReadonlyArray<readonly [label: string, value: string]>): Content {
  return {
    stack: fields
      .filter(([, value]) => value !== '')
      .map(([label, value]) => ({ text: [{ text: `${label} : `, style: 'label' }, value], margin: [0, 0, 0, 3] })),
  };
}

export interface Column {
  header: string;
  /** pdfmake widths: a number of points, `'*'` (share the rest) or `'auto'`. */
  width: number | '*' | 'auto';
  alignment?: 'left' | 'right' | 'center';
}

/** A table in the house layout; the header row repeats on every page. */
export function dataTable(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>): ContentTable {
  return {
    layout: 'payroll',
    table: {
      headerRows: 1,
      widths: columns.map((column) => column.width),
      body: [
        columns.map((column) => ({ text: column.header, style: 'tableHeader', alignment: column.alignment ?? 'left' })),
        ...rows.map((row) => row.map((cell, i) => ({ text: cell, alignment: columns[i]?.alignment ?? 'left' }))),
      ],
    },
  };
}

/** Totals, right-aligned under a table; the last line stands out. Amounts already formatted. */
export function totalsBlock(lines: ReadonlyArray<readonly [label: string, amount: string]>): Content {
  return {
    margin: [0, 8, 0, 0],
    table: {
      widths: ['*', 'auto', 90],
      body: lines.map(([label, amount], i) => {
        const style = i === lines.length - 1 ? 'total' : undefined;
        return [{ text: '' }, { text: label, alignment: 'right', style }, { text: amount, alignment: 'right', style }];
      }),
    },
    layout: 'noBorders',
  };
}

/** Signature blocks side by side: the place and date line, then room to sign. */
export function signatureBlocks(place: string, date: string, signers: readonly string[]): Content[] {
  return [
    { text: `Fait à ${place}, le ${date}, en ${signers.length} exemplaires.`, margin: [0, 24, 0, 12] },
    {
      columnGap: 20,
      unbreakable: true,
      columns: signers.map((signer) => ({
        stack: [
          { text: signer, style: 'label' },
          { text: 'Lu et approuvé, signature', style: 'small', margin: [0, 2, 0, 0] },
          { canvas: [{ type: 'rect', x: 0, y: 6, w: 220, h: 70, lineWidth: 0.5, lineColor: '#9aa3ad' }] },
        ],
      })),
    },
  ];
}
