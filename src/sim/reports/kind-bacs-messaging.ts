// The messaging advices: `BACSDocument/Data/MessagingAdvices` with a MessagingHeader (advice-type,
// report-type, user-number, …), AddresseeInformation, one MessagingAdvice per advice (attributes
// only) and MessagingError, as public ADDACS and AUDDIS samples show. ADDACS (7001), AUDDIS bank
// returned DDIs (7002), AUDDIS file acceptance (AUDACC 7003) and rejection (AUDREJ 7004), AWACS.
import type { Faker } from '@faker-js/faker';
import type { Advice, Flavour, MessagingData } from './messaging-data.ts';
import { messagingView } from './messaging-view.ts';
import { adviceNumber, draw, drawItems, type ReportContext } from './report-context.ts';
import { field, type Item } from './report-items.ts';
import { kind } from './report-kind.ts';
import {
  ADDACS_MOVES,
  ADDACS_REASONS,
  AUDDIS_FILE_ERRORS,
  AUDDIS_REASONS,
  AUDDIS_RECORD_TYPES,
  AWACS_REASONS,
  DDI_TRANSACTION_CODES,
} from './scheme-codes.ts';
import { bacsDocument, el } from './xml-writer.ts';

const aosn = (i: number) => String(i + 1).padStart(8, '0');

/** The payer and the instruction an advice is about, as drawn. */
const payer = (f: Faker, ctx: ReportContext): Item => ({
  Reference: draw.reference(f),
  PayerName: draw.holder(f),
  PayerSortCode: draw.sortCode(f),
  PayerAccountNumber: draw.accountNumber(f),
  NewSortCode: draw.sortCode(f),
  NewAccountNumber: draw.accountNumber(f),
  EffectiveDate: ctx.processingDate,
});

const payerFields = [
  field.bacsText('Reference'),
  field.bacsText('PayerName'),
  field.sortCode('PayerSortCode'),
  field.accountNumber('PayerAccountNumber'),
  field.date('EffectiveDate'),
  field.sortCode('NewSortCode'),
  field.accountNumber('NewAccountNumber'),
];

function payerAdvice(it: Item, ctx: ReportContext, recordType: string, moves: boolean, i: number): Advice {
  return {
    'user-number': ctx.user.service_user_number,
    'record-type': recordType,
    'effective-date': it.EffectiveDate,
    reference: it.Reference,
    'payer-name': it.PayerName,
    'payer-account-number': it.PayerAccountNumber,
    'payer-sort-code': it.PayerSortCode,
    'reason-code': it.ReasonCode,
    'payer-new-sort-code': moves ? it.NewSortCode : undefined,
    'payer-new-account-number': moves ? it.NewAccountNumber : undefined,
    aosn: aosn(i),
  };
}

const PAYER_COLUMNS = [
  'aosn',
  'reference',
  'payer-name',
  'payer-sort-code',
  'payer-account-number',
  'reason-code',
  'payer-new-sort-code',
  'payer-new-account-number',
  'effective-date',
];

const ADDACS_FLAVOUR: Flavour = {
  adviceType: 'ADDACS',
  reportType: '7001',
  fields: [...payerFields, field.code(ADDACS_REASONS)('ReasonCode')],
  draw: (f, ctx) => ({ ...payer(f, ctx), ReasonCode: f.helpers.arrayElement(ADDACS_REASONS).code }),
  advice: (it, ctx) => payerAdvice(it, ctx, 'A', ADDACS_MOVES.has(it.ReasonCode!), Number(it._i)),
  min: 1,
  max: 15,
  columns: PAYER_COLUMNS,
  reasons: ADDACS_REASONS,
};

const AUDDIS_FLAVOUR: Flavour = {
  adviceType: 'AUDDIS',
  reportType: '7002',
  fields: [
    ...payerFields,
    field.code(AUDDIS_REASONS)('ReasonCode'),
    field.oneOf(DDI_TRANSACTION_CODES)('TransactionCode'),
  ],
  draw: (f, ctx) => ({
    ...payer(f, ctx),
    ReasonCode: f.helpers.arrayElement(AUDDIS_REASONS).code,
    TransactionCode: f.helpers.arrayElement(DDI_TRANSACTION_CODES),
  }),
  advice: (it, ctx) =>
    payerAdvice(it, ctx, AUDDIS_RECORD_TYPES[it.TransactionCode!]!, it.ReasonCode === 'C', Number(it._i)),
  min: 1,
  max: 15,
  columns: ['record-type', ...PAYER_COLUMNS],
  reasons: AUDDIS_REASONS,
};

const AWACS_FLAVOUR: Flavour = {
  adviceType: 'AWACS',
  reportType: '7005',
  fields: [...payerFields, field.code(AWACS_REASONS)('ReasonCode')],
  draw: (f, ctx) => ({ ...payer(f, ctx), ReasonCode: f.helpers.arrayElement(AWACS_REASONS).code }),
  // AWACS names the beneficiary's account with the same attributes (public parsers read payer-new-*).
  advice: (it, ctx) => payerAdvice(it, ctx, 'W', true, Number(it._i)),
  min: 1,
  max: 10,
  columns: PAYER_COLUMNS,
  reasons: AWACS_REASONS,
};

const fileFields = [field.digits(3)('FileNumber'), field.count('AcceptedDDIs'), field.count('RejectedDDIs')];

function fileAdvice(it: Item, ctx: ReportContext, recordType: string, errorCode: string): Advice {
  return {
    'user-number': ctx.user.service_user_number,
    'record-type': recordType,
    aosn: String(Number(it._i) + 1),
    'processing-date': ctx.processingDate,
    'originator-file-number': it.FileNumber,
    'work-code': '1 DAILY',
    'file-type': 'LIVE',
    'accepted-ddi': it.AcceptedDDIs,
    'rejected-ddi': it.RejectedDDIs,
    'vol-serial-number': `000${it.FileNumber}`,
    'file-error-code': errorCode,
  };
}

const FILE_COLUMNS = [
  'originator-file-number',
  'vol-serial-number',
  'processing-date',
  'work-code',
  'file-type',
  'accepted-ddi',
  'rejected-ddi',
  'file-error-code',
];

const AUDACC_FLAVOUR: Flavour = {
  adviceType: 'AUDACC',
  reportType: '7003',
  fields: fileFields,
  draw: (f) => ({
    FileNumber: f.string.numeric(3),
    AcceptedDDIs: String(f.number.int({ min: 1, max: 400 })),
    RejectedDDIs: '0',
  }),
  advice: (it, ctx) => fileAdvice(it, ctx, 'V', '0'),
  min: 1,
  max: 2,
  columns: FILE_COLUMNS,
};

const AUDREJ_FLAVOUR: Flavour = {
  adviceType: 'AUDREJ',
  reportType: '7004',
  fields: [
    field.digits(3)('FileNumber'),
    field.count('RejectedDDIs'),
    field.digits(5)('ErrorCode'),
    field.text('ErrorText'),
  ],
  draw: (f) => {
    const error = f.helpers.arrayElement(AUDDIS_FILE_ERRORS);
    return {
      FileNumber: f.string.numeric(3),
      AcceptedDDIs: '0',
      RejectedDDIs: String(f.number.int({ min: 1, max: 400 })),
      ErrorCode: error.code,
      ErrorText: error.description,
    };
  },
  advice: (it, ctx) => fileAdvice(it, ctx, 'R', it.ErrorCode!),
  min: 1,
  max: 1,
  columns: FILE_COLUMNS,
  errors: (items) => items.map((it) => it.ErrorText!),
};

function build(fl: Flavour, ctx: ReportContext): MessagingData {
  const documentNumber = adviceNumber(ctx);
  const items = drawItems(ctx, fl.fields, (i) => ({ ...fl.draw(ctx.faker, ctx), _i: String(i) }), fl.min, fl.max);
  return {
    adviceType: fl.adviceType,
    reportType: fl.reportType,
    title: ctx.title,
    reportId: ctx.reportId,
    generationTime: ctx.generationTime,
    processingDate: ctx.processingDate,
    documentNumber,
    user: ctx.user,
    advices: items.map((it) => fl.advice(it, ctx)),
    errors: fl.errors?.(items) ?? [],
  };
}

function xml(d: MessagingData): string {
  const aosns = d.advices.map((a) => a.aosn!);
  return bacsDocument(
    'newbacs-advices.xsd',
    el('MessagingAdvices', {}, [
      el('MessagingHeader', {
        'advice-type': d.adviceType,
        'report-type': d.reportType,
        'user-number': d.user.service_user_number,
        'user-name': d.user.service_user_name,
        'report-generation-date': d.generationTime.slice(0, 10),
        'document-number': d.documentNumber,
        'subject-first-aosn': aosns[0] ?? '0',
        'subject-last-aosn': aosns.at(-1) ?? '0',
        'envelope-sequence-number': '00000001',
        'stream-identifier': '0',
        'reprint-indicator': '0',
      }),
      el('AddresseeInformation', { name: d.user.service_user_name }),
      ...d.advices.map((a) => el('MessagingAdvice', a)),
      ...(d.errors.length > 0 ? d.errors.map((line1) => el('MessagingError', { line1 })) : [el('MessagingError')]),
    ]),
  );
}

const messaging = (fl: Flavour) =>
  kind<MessagingData>({
    fields: fl.fields,
    // A file advice is about a file: an acceptance or rejection lists one at least.
    ...(fl.adviceType === 'AUDACC' || fl.adviceType === 'AUDREJ' ? { minRows: 1 } : {}),
    build: (ctx) => build(fl, ctx),
    xml,
    view: (d) => messagingView(fl, d),
  });

export const ADDACS = messaging(ADDACS_FLAVOUR);
export const AUDDIS_RETURNS = messaging(AUDDIS_FLAVOUR);
export const AWACS = messaging(AWACS_FLAVOUR);
export const AUDDIS_ACCEPTANCE = messaging(AUDACC_FLAVOUR);
export const AUDDIS_REJECTION = messaging(AUDREJ_FLAVOUR);
