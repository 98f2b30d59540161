// ARUDD (returned Direct Debits) and ARUCS (unapplied Direct Credits): `BACSDocument/Data/ARUDD`
// as public samples show it (Header, AddresseeInformation, ServiceLicenseInformation, then
// Advice/OriginatingAccountRecords/OriginatingAccountRecord with the account, its items and Totals);
// ARUCS in the same structure with ReturnedCreditItem and PayeeAccount (inferred: docs/reports.md).
import type { Faker } from '@faker-js/faker';
import {
  ACCOUNT_INDEX,
  adviceNumber,
  byOriginatingAccount,
  draw,
  drawAccountIndex,
  drawItems,
  type ReportContext,
} from './report-context.ts';
import { field, type Item } from './report-items.ts';
import { kind } from './report-kind.ts';
import { bacsHeader, count, dashedSortCode, money, type ReportView, sum, viewField } from './report-view.ts';
import {
  ARUCS_REASONS,
  ARUDD_REASONS,
  aruddReturnCode,
  CREDIT_TRANSACTION_CODES,
  DEBIT_TRANSACTION_CODES,
  describeCode,
  type SchemeCode,
} from './scheme-codes.ts';
import type { OriginatingAccount, ServiceUser } from './service-users.ts';
import { bacsDocument, el } from './xml-writer.ts';

interface ReturnedItem {
  ref: string;
  transCode: string;
  reason: string;
  returnCode: string;
  returnDescription: string;
  originalProcessingDate: string;
  valueOf: string;
  party: { name: string; number: string; sortCode: string; bankName: string; branchName: string };
}

interface ReturnsData {
  scheme: 'ARUDD' | 'ARUCS';
  title: string;
  reportId: string;
  generationTime: string;
  reportType: string;
  adviceNumber: string;
  processingDate: string;
  user: ServiceUser;
  records: Array<{ account: OriginatingAccount; items: ReturnedItem[]; total: string }>;
}

interface Flavour {
  scheme: 'ARUDD' | 'ARUCS';
  reportType: string;
  reasons: readonly SchemeCode[];
  codes: readonly string[];
  party: 'Payer' | 'Payee';
  item: 'ReturnedDebitItem' | 'ReturnedCreditItem';
  returnCode: (reason: string) => string;
}

const ARUDD_FLAVOUR: Flavour = {
  scheme: 'ARUDD',
  reportType: 'REFT1026',
  reasons: ARUDD_REASONS,
  codes: DEBIT_TRANSACTION_CODES,
  party: 'Payer',
  item: 'ReturnedDebitItem',
  returnCode: aruddReturnCode,
};

const ARUCS_FLAVOUR: Flavour = {
  scheme: 'ARUCS',
  reportType: 'REFT1027',
  reasons: ARUCS_REASONS,
  codes: CREDIT_TRANSACTION_CODES,
  party: 'Payee',
  item: 'ReturnedCreditItem',
  // ARUCS files carry the reason as the return code (no public sample shows otherwise).
  returnCode: (reason) => reason,
};

function fieldsOf(fl: Flavour) {
  return [
    field.bacsText('Reference'),
    field.bacsText(`${fl.party}Name`),
    field.sortCode(`${fl.party}SortCode`),
    field.accountNumber(`${fl.party}AccountNumber`),
    field.amount('Amount'),
    field.code(fl.reasons)('ReasonCode'),
    field.date('OriginalProcessingDate'),
    field.oneOf(fl.codes)('TransactionCode'),
  ] as const;
}

function itemMaker(ctx: ReportContext, fl: Flavour, f: Faker) {
  return (): Item => ({
    [ACCOUNT_INDEX]: drawAccountIndex(ctx),
    Reference: draw.reference(f),
    [`${fl.party}Name`]: draw.holder(f),
    [`${fl.party}SortCode`]: draw.sortCode(f),
    [`${fl.party}AccountNumber`]: draw.accountNumber(f),
    BankName: draw.bankName(f),
    BranchName: draw.branchName(f),
    Amount: draw.amount(f),
    ReasonCode: f.helpers.arrayElement(fl.reasons).code,
    // The return comes one to three working days after the day the item was processed.
    OriginalProcessingDate: ctx.workingDaysBefore(ctx.processingDate, f.number.int({ min: 1, max: 3 })),
    TransactionCode: f.helpers.arrayElement(fl.codes),
  });
}

function build(fl: Flavour, ctx: ReportContext): ReturnsData {
  const number = adviceNumber(ctx);
  const items = drawItems(ctx, fieldsOf(fl), itemMaker(ctx, fl, ctx.faker), 3, 20);
  return {
    scheme: fl.scheme,
    title: ctx.title,
    reportId: ctx.reportId,
    generationTime: ctx.generationTime,
    reportType: fl.reportType,
    adviceNumber: number,
    processingDate: ctx.processingDate,
    user: ctx.user,
    records: byOriginatingAccount(ctx, items).map(({ account, items }) => {
      const returned = items.map(
        (it): ReturnedItem => ({
          ref: it.Reference!,
          transCode: it.TransactionCode!,
          reason: it.ReasonCode!,
          returnCode: fl.returnCode(it.ReasonCode!),
          returnDescription: describeCode(fl.reasons, it.ReasonCode!).toUpperCase(),
          originalProcessingDate: it.OriginalProcessingDate!,
          valueOf: it.Amount!,
          party: {
            name: it[`${fl.party}Name`]!,
            number: it[`${fl.party}AccountNumber`]!,
            sortCode: it[`${fl.party}SortCode`]!,
            bankName: it.BankName!,
            branchName: it.BranchName!,
          },
        }),
      );
      return { account, items: returned, total: sum(returned.map((r) => r.valueOf)) };
    }),
  };
}

function xml(fl: Flavour, d: ReturnsData): string {
  return bacsDocument(
    'newbacs-advices.xsd',
    el(fl.scheme, {}, [
      el('Header', { reportType: d.reportType, adviceNumber: d.adviceNumber, currentProcessingDate: d.processingDate }),
      el('AddresseeInformation', { name: d.user.service_user_name }),
      el('ServiceLicenseInformation', { userName: d.user.service_user_name, userNumber: d.user.service_user_number }),
      el('Advice', {}, [
        el(
          'OriginatingAccountRecords',
          {},
          d.records.map((r) =>
            el('OriginatingAccountRecord', {}, [
              el('OriginatingAccount', {
                name: r.account.name,
                number: r.account.account_number,
                sortCode: dashedSortCode(r.account.sort_code),
                type: '0',
                bankName: r.account.bank_name,
                branchName: r.account.branch_name,
              }),
              ...r.items.map((it) =>
                el(
                  fl.item,
                  {
                    ref: it.ref,
                    transCode: it.transCode,
                    returnCode: it.returnCode,
                    returnDescription: it.returnDescription,
                    originalProcessingDate: it.originalProcessingDate,
                    valueOf: it.valueOf,
                    currency: 'GBP',
                  },
                  [
                    el(`${fl.party}Account`, {
                      number: it.party.number,
                      ref: it.ref,
                      name: it.party.name,
                      sortCode: dashedSortCode(it.party.sortCode),
                      bankName: it.party.bankName,
                      branchName: it.party.branchName,
                    }),
                  ],
                ),
              ),
              el('Totals', { numberOf: r.items.length, valueOf: r.total, currency: 'GBP' }),
            ]),
          ),
        ),
      ]),
    ]),
  );
}

function view(fl: Flavour, d: ReturnsData): ReportView {
  const all = d.records.flatMap((r) => r.items);
  return {
    title: d.title,
    subtitle: `${fl.scheme} advice ${d.adviceNumber}`,
    header: bacsHeader({
      user: d.user,
      report: `${fl.scheme} (${d.reportType})`,
      numberLabel: 'Advice number',
      number: d.adviceNumber,
      processingDate: d.processingDate,
      generationTime: d.generationTime,
      reportId: d.reportId,
    }),
    sections: d.records.map((r) => ({
      heading: `Originating account ${dashedSortCode(r.account.sort_code)} ${r.account.account_number} ${r.account.name}`,
      fields: [viewField('Bank', 'Bank', `${r.account.bank_name}, ${r.account.branch_name}`)],
      columns: [
        { label: 'Reference' },
        { label: fl.party },
        { label: 'Sort code' },
        { label: 'Account' },
        { label: 'Code' },
        { label: 'Reason' },
        { label: 'Original processing' },
        { label: 'Amount', align: 'right' as const },
      ],
      rows: r.items.map((it) => [
        it.ref,
        it.party.name,
        dashedSortCode(it.party.sortCode),
        it.party.number,
        it.transCode,
        `${it.reason} ${describeCode(fl.reasons, it.reason)}`,
        it.originalProcessingDate,
        money(it.valueOf),
      ]),
      totals: [
        viewField('AccountItems', 'Items for this account', count(r.items.length)),
        viewField('AccountTotal', 'Total for this account', money(r.total)),
      ],
    })),
    totals: [
      viewField('TotalItems', fl.scheme === 'ARUDD' ? 'Debits returned' : 'Credits returned', count(all.length)),
      viewField('TotalValue', 'Total value', money(sum(all.map((i) => i.valueOf)))),
    ],
    notes: [],
  };
}

export const ARUDD = kind<ReturnsData>({
  fields: fieldsOf(ARUDD_FLAVOUR),
  build: (ctx) => build(ARUDD_FLAVOUR, ctx),
  xml: (d) => xml(ARUDD_FLAVOUR, d),
  view: (d) => view(ARUDD_FLAVOUR, d),
});

export const ARUCS = kind<ReturnsData>({
  fields: fieldsOf(ARUCS_FLAVOUR),
  build: (ctx) => build(ARUCS_FLAVOUR, ctx),
  xml: (d) => xml(ARUCS_FLAVOUR, d),
  view: (d) => view(ARUCS_FLAVOUR, d),
});
