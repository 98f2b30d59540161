// A report's content: its data, built once from the report (processing date, generation time),
// its service user, the scheme calendar and the rows it arrived with or a faker seeded from its id.
// Every format is drawn from that one data: the XML from the data, the PDF and XHTML from its view.
import { createHash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import type { BacsCalendar } from '../../clock/calendar.ts';
import type { CatalogueEntry } from './catalogue.ts';
import type { ReportContext } from './report-context.ts';
import type { ReportKind } from './report-kind.ts';
import { REPORT_KINDS } from './report-kinds.ts';
import type { Report } from './report-types.ts';
import type { ReportView } from './report-view.ts';
import type { ServiceUser } from './service-users.ts';

export interface ReportDocument {
  title: string;
  /** The report's data (its shape is the kind's); the XML and the view are drawn from it. */
  data: unknown;
  xml(): string;
  view(): ReportView;
}

let fakerModule: Promise<typeof import('@faker-js/faker')> | undefined;

/** faker with a fixed seed. Imported on first use: loading it costs start-up about half a second. */
async function seededFaker(seed: number): Promise<Faker> {
  fakerModule ??= import('@faker-js/faker');
  const { Faker: FakerClass, en_GB, en, base } = await fakerModule;
  const faker = new FakerClass({ locale: [en_GB, en, base] });
  faker.seed(seed);
  return faker;
}

/** A 32-bit seed from a report id: the same report always draws the same content. */
export function seedOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0);
}

/** The kind of content of a catalogue entry (a report whose type left the catalogue: a transaction summary). */
export function kindOf(entry: CatalogueEntry | undefined): ReportKind {
  return REPORT_KINDS[entry?.content ?? 'transaction_summary'];
}

/** A calendar step that stays on the date when it would leave the supported years. */
function safely(step: () => string, date: string): string {
  try {
    return step();
  } catch {
    return date;
  }
}

export interface ContentSources {
  organisationName: string;
  serviceUser: ServiceUser;
  calendar: BacsCalendar;
  /** Rows the report arrived with (a client's injection, or the simulation's own). */
  rows?: ReadonlyArray<Record<string, unknown>>;
}

export async function reportDocument(
  report: Report,
  entry: CatalogueEntry | undefined,
  sources: ContentSources,
): Promise<ReportDocument> {
  const a = report.attributes;
  const { calendar } = sources;
  const ctx: ReportContext = {
    reportId: report.id,
    reportType: a.report_type,
    title: a.report_type_description,
    processingDate: a.processing_date ?? a.generation_time.slice(0, 10),
    generationTime: a.generation_time,
    user: sources.serviceUser,
    organisationName: sources.organisationName,
    faker: await seededFaker(seedOf(report.id)),
    workingDaysBefore: (date, n) => safely(() => calendar.addWorkingDays(date, -n), date),
    workingDaysAfter: (date, n) => safely(() => calendar.addWorkingDays(date, n), date),
    isBacsWorkingDay: (date) => calendar.isBacsWorkingDay(date),
    ...(sources.rows ? { given: sources.rows } : {}),
  };
  const kind = kindOf(entry);
  const data = kind.build(ctx);
  return { title: ctx.title, data, xml: () => kind.xml(data), view: () => kind.view(data) };
}
