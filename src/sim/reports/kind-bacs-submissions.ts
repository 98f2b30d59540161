// Reports on the organisation's own submissions, `BACSDocument/Data/<report>/…` with `Submission`,
// `SubmissionInformation` and one `UserFile` per file: the Input report as a public sample shows it
// (InputReport: day section totals with contras, account totals, agreement of file totals, errors),
// Arrival and Withdrawal derived from it (docs/reports.md says what is inferred).
import { adviceNumber, draw, drawItems, type ReportContext } from './report-context.ts';
import { field, type Item } from './report-items.ts';
import { kind } from './report-kind.ts';
import {
  acceptedDebits,
  attributesOf,
  contraOf,
  none,
  rejectedOf,
  type SubmissionData,
  shareOf,
  sumTallies,
  type Tally,
  tallyOf,
  type UserFile,
} from './submission-data.ts';
import { submissionView } from './submission-view.ts';
import { bacsDocument, el, type XmlNode } from './xml-writer.ts';

const FIELDS = [
  field.digits(3)('UserFileNumber'),
  field.count('DebitCount'),
  field.amount('DebitValue'),
  field.count('CreditCount'),
  field.amount('CreditValue'),
  field.smallCount('RejectedDebitCount'),
  field.text('Reason'),
];

function build(report: SubmissionData['report'], reportType: string, ctx: ReportContext): SubmissionData {
  const f = ctx.faker;
  const reportNumber = String(Number(adviceNumber(ctx)));
  const submissionReference = `${ctx.processingDate.replaceAll('-', '')}01S${f.string.numeric(9)}`;
  const volumeSerialNumber = f.string.numeric(6);
  const producedTime = draw.time(f);
  const accounts = ctx.user.originating_accounts;
  const items = drawItems(
    ctx,
    FIELDS,
    (i) => ({
      UserFileNumber: String(i + 1).padStart(3, '0'),
      DebitCount: String(f.number.int({ min: 1, max: 400 })),
      DebitValue: draw.amount(f, 100_000, 90_000_000),
      CreditCount: String(f.number.int({ min: 0, max: 3 })),
      CreditValue: draw.amount(f, 10_000, 5_000_000),
      RejectedDebitCount: String(
        f.helpers.weightedArrayElement([
          { weight: 3, value: 0 },
          { weight: 1, value: 1 },
          { weight: 1, value: 2 },
        ]),
      ),
      Reason: f.helpers.arrayElement([
        'Duplicate file',
        'Incorrect processing date',
        'Wrong amounts',
        'Requested by service user',
      ]),
    }),
    1,
    3,
  );
  const files = items.map((it: Item, i): UserFile => {
    const debits = tallyOf(it.DebitCount!, it.DebitValue!);
    // The rejected records are drawn from the file's debits: each an equal share of their value.
    const rejectedCount = report === 'InputReport' ? Math.min(Number(it.RejectedDebitCount), debits.numberOf) : 0;
    const rejected = Array.from({ length: rejectedCount }, () => ({
      reference: draw.reference(f),
      name: draw.holder(f),
      sortCode: draw.sortCode(f),
      accountNumber: draw.accountNumber(f),
      valueOf: shareOf(debits),
    }));
    return {
      number: it.UserFileNumber!,
      account: accounts[i % accounts.length]!,
      fileReference: `${ctx.processingDate.replaceAll('-', '')}01F${f.string.numeric(9)}`,
      debits,
      credits: tallyOf(it.CreditCount!, it.CreditValue!),
      rejected,
      ...(report === 'WithdrawalReport' ? { reason: it.Reason! } : {}),
    };
  });
  return {
    report,
    reportType,
    title: ctx.title,
    reportId: ctx.reportId,
    generationTime: ctx.generationTime,
    producedTime,
    reportNumber,
    processingDate: ctx.processingDate,
    user: ctx.user,
    submissionReference,
    volumeSerialNumber,
    files,
  };
}

function userFileInformation(d: SubmissionData, file: UserFile): XmlNode {
  return el('UserFileInformation', {
    userNumber: d.user.service_user_number,
    userName: d.user.service_user_name,
    userFileNumber: file.number,
    sequenceNumber: '0001',
    fileCurrency: 'GBP',
    uhl1WorkCode: '1 DAILY',
    uhl1ProcessingDate: d.processingDate,
    fileReferenceNumber: file.fileReference,
    userSponsor: d.user.sponsor_name,
  });
}

const side = (name: 'Credit' | 'Debit', t: Tally, contra?: Tally) =>
  el(name, attributesOf(t), contra ? [el('Contra', attributesOf(contra))] : []);

const entry = (name: string, accepted: Tally, rejected: Tally, last: 'TotalsRecords' | 'UserTrailerTotals') =>
  el(name, {}, [
    el('AcceptedRecords', attributesOf(accepted)),
    el('RejectedRecords', attributesOf(rejected)),
    el(last, attributesOf(sumTallies([accepted, rejected]))),
    ...(last === 'UserTrailerTotals' ? [el('AdjustmentRecords', attributesOf({ numberOf: 0, valueOf: '0.00' }))] : []),
  ]);

function inputUserFile(d: SubmissionData, file: UserFile): XmlNode {
  const accepted = acceptedDebits(file);
  const debitContra = contraOf(accepted);
  const creditContra = contraOf(file.credits);
  const daySection = [side('Credit', file.credits, creditContra), side('Debit', accepted, debitContra)];
  return el('InputUserFile', {}, [
    userFileInformation(d, file),
    el('DaySection', { daySectionLevelErrorMessage: '' }, [
      el(
        'DaySectionRecord',
        {
          dayRef: `${file.fileReference.slice(0, 10)}D${file.fileReference.slice(11)}`,
          recordDate: d.processingDate,
          processingDate: d.processingDate,
        },
        daySection,
      ),
      el('Totals', {}, daySection),
    ]),
    file.rejected.length === 0
      ? undefined
      : el('Errors', {}, [
          el('TotalNumberOfErrors', { amendedRecords: 0, returnedRecords: 0, rejectedRecords: file.rejected.length }),
          ...file.rejected.map((r) =>
            el('Error', {}, [
              el('ErrorItem', {
                reference: r.reference,
                name: r.name,
                sortCode: r.sortCode,
                accountNumber: r.accountNumber,
                transactionCode: '17',
                valueOf: r.valueOf,
                currency: 'GBP',
              }),
              el('ErrorMessage', { type: 'REJECTED', text: 'Destination account details invalid' }),
            ]),
          ),
        ]),
    el('InputReportSummary', {}, [
      el('AccountTotals', {}, [
        el(
          'AccountTotal',
          { number: file.account.account_number, sortCode: file.account.sort_code, type: 'Individual' },
          [
            entry('CreditEntry', file.credits, none, 'TotalsRecords'),
            entry('DebitEntry', accepted, rejectedOf(file), 'TotalsRecords'),
            entry('CreditContraEntry', creditContra, none, 'TotalsRecords'),
            entry('DebitContraEntry', debitContra, none, 'TotalsRecords'),
          ],
        ),
      ]),
      // Credit records are the credits and the debit contra; debit records the debits and the credit contra.
      el('AgreementOfFileTotals', {}, [
        entry('CreditEntry', sumTallies([file.credits, debitContra]), none, 'UserTrailerTotals'),
        entry('DebitEntry', sumTallies([accepted, creditContra]), rejectedOf(file), 'UserTrailerTotals'),
      ]),
    ]),
  ]);
}

function xml(d: SubmissionData): string {
  const userFile = (file: UserFile): XmlNode => {
    if (d.report === 'InputReport') return el('UserFile', { fileLevelMessage: '' }, [inputUserFile(d, file)]);
    const totals = el('Totals', {}, [side('Credit', file.credits), side('Debit', file.debits)]);
    const inner = d.report === 'ArrivalReport' ? 'ArrivalUserFile' : 'WithdrawalUserFile';
    return el('UserFile', {}, [
      el(inner, {}, [
        userFileInformation(d, file),
        el('DaySection', {}, [totals]),
        file.reason === undefined ? undefined : el('WithdrawalInformation', { reason: file.reason }),
      ]),
    ]);
  };
  const submission = {
    submissionReferenceNumber: d.submissionReference,
    media: 'BACSTEL-IP',
    volumeSerialNumber: d.volumeSerialNumber,
    ...(d.report === 'WithdrawalReport' ? { bureauNumber: d.user.service_user_number } : {}),
  };
  return bacsDocument(
    'newbacs-reports.xsd',
    el(d.report, {}, [
      el('Header', { reportNumber: d.reportNumber, reportType: d.reportType }, [
        el('ProducedOn', { date: d.generationTime.slice(0, 10), time: d.producedTime }),
        el('ProcessingDate', { date: d.processingDate }),
      ]),
      el('Submission', {}, [el('SubmissionInformation', submission), ...d.files.map(userFile)]),
    ]),
  );
}

const submissionKind = (report: SubmissionData['report'], reportType: string) =>
  kind<SubmissionData>({
    fields: FIELDS,
    minRows: 1,
    build: (ctx) => build(report, reportType, ctx),
    xml,
    view: submissionView,
  });

export const INPUT = submissionKind('InputReport', 'REFT2013');
export const ARRIVAL = submissionKind('ArrivalReport', 'REFT2011');
export const WITHDRAWAL = submissionKind('WithdrawalReport', 'REFT2014');
