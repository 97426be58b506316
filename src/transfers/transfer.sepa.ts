/**
 * A batch as a SEPA credit transfer file (ISO 20022 `pain.001.001.03`), written by
 * the `sepa` library: one payment block debiting the operator's account, one transaction per
 * payslip (the payee's name and IBAN as the batch stored them at commit, the amount, the
 * remittance `Salaire {period}`). `NbOfTxs` and `CtrlSum` are the batch's count and exact total.
 *
 * Identifiers stay within the schema's 35 characters: `MsgId` is the batch reference
 * (`VIR-2027-000042`), `PmtInfId` `VIR-2027-000042.1`, `InstrId` `VIR-2027-000042.1.{n}`,
 * and each `EndToEndId` the payslip's id without dashes (32 characters), which the bank
 * statement gives back.
 */
import { Document } from 'sepa';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { OperatorConfig } from '../config.ts';
import { moneyFromDb, sumMoney, type Money } from '../money/money.ts';
import { sepaText } from '../format/sepa.ts';
import { transferErrors } from './transfer.errors.ts';

export interface SepaLine {
  payslip_id: string;
  creditor_name: string;
  iban: string;
  bic: string | null;
  amount: string;
  period: string;
}

export interface SepaBatch {
  reference: string;
  /** When the batch was made: the file's `CreDtTm`, so that every download is the same file. */
  created_at: Date;
  /** 'YYYY-MM-DD'. */
  execution_date: string;
  total: string;
  lines: SepaLine[];
}

/** The operator's account, or 409 `operator_account_missing` when unset or not valid. */
export function operatorAccount(operator: OperatorConfig): { name: string; iban: string; bic: string } {
  const iban = operator.iban ? electronicFormatIBAN(operator.iban) : null;
  const bic = operator.bic;
  if (!iban || !bic || !isValidIBAN(iban) || !isValidBIC(bic) || !bicMatchesIban(bic, iban)) throw transferErrors.operatorAccountMissing();
  return { name: sepaText(operator.name), iban, bic };
}

/** Territories whose BIC country differs from the IBAN's (as the `sepa` library accepts them). */
const TERRITORIES: Record<string, string[]> = {
  FI: ['AX'],
  FR: ['GF', 'GP', 'MQ', 'RE', 'PF', 'TF', 'YT', 'NC', 'BL', 'MF', 'PM', 'WF'],
  GB: ['IM', 'JE', 'GG'],
};

/** A BIC's country (characters 5-6) is the IBAN's, or one of its territories. */
export function bicMatchesIban(bic: string, iban: string): boolean {
  const bicCountry = bic.slice(4, 6);
  const ibanCountry = iban.slice(0, 2);
  return bicCountry === ibanCountry || (TERRITORIES[ibanCountry] ?? []).includes(bicCountry);
}

/** A 'YYYY-MM-DD' date as the library wants it: a local midnight (it writes local calendar dates). */
function localDate(isoDate: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day);
}

/** The SEPA file of a batch, as UTF-8 XML text. */
export function sepaCreditTransfer(batch: SepaBatch, debtor: { name: string; iban: string; bic: string }): string {
  const total = moneyFromDb(batch.total);
  const amounts = batch.lines.map((line) => moneyFromDb(line.amount));
  // The stored total is the sum of the stored lines; a file that disagreed would be refused by the bank.
  if (sumMoney(amounts) !== total) throw new Error(`batch ${batch.reference}: lines sum to ${sumMoney(amounts)}, total is ${total}`);

  const doc = new Document('pain.001.001.03');
  doc.grpHdr.id = batch.reference;
  doc.grpHdr.created = batch.created_at;
  doc.grpHdr.initiatorName = debtor.name;

  const payment = doc.createPaymentInfo();
  payment.id = '1';
  payment.requestedExecutionDate = localDate(batch.execution_date);
  payment.debtorName = debtor.name;
  payment.debtorIBAN = debtor.iban;
  payment.debtorBIC = debtor.bic;
  doc.addPaymentInfo(payment);

  batch.lines.forEach((line, index) => {
    const tx = payment.createTransaction();
    tx.creditorName = sepaText(line.creditor_name);
    tx.creditorIBAN = line.iban;
    // A BIC that does not match the IBAN's country is left out: IBAN only is valid SEPA.
    tx.creditorBIC = line.bic && isValidBIC(line.bic) && bicMatchesIban(line.bic, line.iban) ? line.bic : '';
    tx.amount = Number(amounts[index]);
    tx.currency = 'EUR';
    tx.end2endId = line.payslip_id.replace(/-/g, '');
    tx.remittanceInfo = `Salaire ${line.period}`;
    payment.addTransaction(tx);
  });

  // The library sums amounts as floating-point numbers; the control sum is the exact total
  // instead (a two-decimal value below 10^10 survives the round trip through a double).
  payment.normalize = function normalizeExactly(this: typeof payment) {
    this.controlSum = Number(total);
  };

  const xml = doc.toString();
  assertTotals(xml, batch.lines.length, total);
  return xml;
}

/** The counts and sums the file carries are the batch's, to the cent (twice: group header and payment block). */
function assertTotals(xml: string, count: number, total: Money): void {
  const counts = [...xml.matchAll(/<NbOfTxs>(\d+)<\/NbOfTxs>/g)].map((m) => Number(m[1]));
  const sums = [...xml.matchAll(/<CtrlSum>([\d.]+)<\/CtrlSum>/g)].map((m) => m[1]);
  if (counts.length !== 2 || sums.length !== 2 || counts.some((c) => c !== count) || sums.some((s) => s !== total)) {
    throw new Error(`SEPA file totals ${JSON.stringify({ counts, sums })} differ from the batch (${count}, ${total})`);
  }
}
