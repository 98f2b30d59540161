// The reports service of the domain: reports arrive on the scheme calendar (or are injected), each
// with its admission and event, and are rendered into files on request.
import type { BacsCalendar } from '../../clock/calendar.ts';
import { isoTimestamp } from '../../clock/clock.ts';
import { DateRangeError, dateProblem } from '../../clock/dates.ts';
import { londonDate } from '../../clock/london.ts';
import type { Job, Scheduler } from '../../clock/scheduler.ts';
import type { Collection } from '../../store/collection.ts';
import { DomainError, invalid } from '../errors.ts';
import { newId } from '../new-id.ts';
import type { Organisations } from '../organisations.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import { type Resource, ref, relatedId } from '../resource.ts';
import {
  type CatalogueEntry,
  processingDateFor,
  REPORT_FORMATS,
  ReportCatalogue,
  type ReportFormat,
} from './catalogue.ts';
import { FileCache } from './file-cache.ts';
import { renderPdf } from './render-pdf.ts';
import { renderZippedXhtml } from './render-xhtml.ts';
import { kindOf, type ReportDocument, reportDocument } from './report-content.ts';
import { type ReportFilter, reportFilter } from './report-filter.ts';
import { itemsProblem } from './report-items.ts';
import { DEFAULT_REPORT_RETENTION_DAYS, pruneReports } from './report-retention.ts';
import { nameUuid, rowsProblem } from './report-rows.ts';
import {
  DAILY_REPORTS_JOB,
  type DailyReportsPayload,
  dailyJobId,
  inSlot,
  nextOccurrence,
  slotsOf,
} from './report-schedule.ts';
import {
  type ArrivalInput,
  REPORT_ADMISSION_TYPE,
  REPORT_TYPE,
  type Report,
  type ReportAdmission,
  type ReportAdmissionAttributes,
  type ReportAttributes,
  reportPath,
} from './report-types.ts';
import { type ServiceUser, serviceUserOf } from './service-users.ts';

export interface ReportsContext extends RepositoryContext {
  calendar: BacsCalendar;
  scheduler: Scheduler;
  organisations: Organisations;
}

export interface ReportFile {
  format: ReportFormat;
  contentType: string;
  bytes: Uint8Array;
}

interface StoredRows {
  id: string;
  rows: Array<Record<string, unknown>>;
}

/**
 * Scheme reports: the catalogue, arrivals (a Report and its Report Admission, each emitting
 * `created`), the daily arrivals on the scheme calendar, and the rendered files.
 */
export class Reports {
  readonly catalogue: ReportCatalogue;
  readonly reports: Repository<ReportAttributes>;
  readonly admissions: Repository<ReportAdmissionAttributes>;
  readonly files: FileCache<Uint8Array>;
  readonly #rows: Collection<StoredRows>;
  readonly #ctx: ReportsContext;
  readonly #serviceUsers: ServiceUser[];
  readonly #retentionDays: number;

  constructor(
    ctx: ReportsContext,
    catalogue: CatalogueEntry[],
    options: { cacheBytes?: number; serviceUsers?: ServiceUser[]; retentionDays?: number } = {},
  ) {
    this.#ctx = ctx;
    this.#retentionDays = options.retentionDays ?? DEFAULT_REPORT_RETENTION_DAYS;
    this.#serviceUsers = options.serviceUsers ?? [];
    this.catalogue = new ReportCatalogue(catalogue);
    this.reports = new Repository<ReportAttributes>(ctx, REPORT_TYPE, {
      path: (r) => reportPath(r.id),
      embeds: ['report_admission'], // go-form3 ReportRelationships: []*ReportAdmission (and the seed)
    });
    this.admissions = new Repository<ReportAdmissionAttributes>(ctx, REPORT_ADMISSION_TYPE, {
      path: (r) => `${reportPath(relatedId(r, 'report') ?? '')}/admissions/${r.id}`,
      embeds: ['report'], // go-form3 ReportAdmissionRelationships: []*Report (and the seed)
    });
    this.#rows = ctx.store.collection<StoredRows>('report_rows');
    this.files = new FileCache<Uint8Array>(options.cacheBytes !== undefined ? { maxBytes: options.cacheBytes } : {});
    ctx.scheduler.handle<DailyReportsPayload>(DAILY_REPORTS_JOB, (job, now) => this.#runDaily(job, now));
  }

  /** A report arrives now: the Report, then its Report Admission (delivery_confirmed, admitted at the scheme clock). */
  arrive(input: ArrivalInput): { report: Resource; admission: Resource } {
    // Both or neither; each announced with the other already there (they name each other).
    return this.#ctx.store.atomically(() => this.#ctx.events.together(() => this.#arrive(input, newId(), newId())));
  }

  /**
   * A client injects a report (POST /v1/simulator/reports): as `arrive`, within the size limits of
   * client content. The simulator's own reports (a busy day's DDIC claim submission report lists
   * every claim) are not capped: their size is the scheme's, and rendering bounds what a PDF shows.
   */
  inject(input: ArrivalInput): { report: Resource; admission: Resource } {
    const entry = this.catalogue.get(input.report_type);
    const problem = input.rows
      ? (rowsProblem(input.rows) ?? (entry && itemsProblem(entry.report_type, kindOf(entry), input.rows)))
      : undefined;
    if (problem) throw invalid(`validation failure list: ${problem}`);
    return this.arrive(input);
  }

  /** The organisation's reports in arrival order, filtered. */
  list(organisationId: string, filter: ReportFilter = {}): Report[] {
    return this.reports.listFor(organisationId).filter(reportFilter(filter));
  }

  get(id: string, organisationId?: string): Report {
    return this.reports.get(id, organisationId);
  }

  /** An admission of a report; 404 unless it belongs to that report and organisation. */
  admission(reportId: string, admissionId: string, organisationId?: string): ReportAdmission {
    this.reports.get(reportId, organisationId);
    return this.admissions.getChild(admissionId, organisationId, { report: reportId });
  }

  /** What the report's files show: its data, drawn into each format. */
  content(report: Report): Promise<ReportDocument> {
    const organisation = this.#ctx.organisations.get(report.organisation_id) ?? {
      id: report.organisation_id,
      name: report.organisation_id,
      sponsor: false,
    };
    const rows = this.#rows.get(report.id)?.rows;
    return reportDocument(report, this.catalogue.get(report.attributes.report_type), {
      organisationName: organisation.name,
      serviceUser: serviceUserOf(organisation, this.#serviceUsers),
      calendar: this.#ctx.calendar,
      ...(rows ? { rows } : {}),
    });
  }

  /** The report's file in a format it offers (rendered once, then served from the cache). */
  async file(id: string, organisationId: string | undefined, format: ReportFormat): Promise<ReportFile> {
    const report = this.get(id, organisationId);
    if (!report.attributes.formats.includes(format)) {
      throw new DomainError(
        'unprocessable',
        `report ${id} is not offered as ${format}; formats: ${report.attributes.formats.join(', ')}`,
      );
    }
    const bytes = await this.files.get(`${report.id}:${report.version}:${format}`, () => this.#render(report, format));
    return { format, contentType: REPORT_FORMATS[format], bytes };
  }

  /**
   * Schedules the next daily arrival of every slot for every organisation (idempotent: job ids
   * name organisation, date and slot). Called at construction; call again after a reset.
   */
  seedSchedule(): void {
    const now = this.#ctx.clock.now();
    for (const organisation of this.#ctx.organisations.list) {
      for (const slot of slotsOf(this.catalogue)) {
        if (!this.catalogue.entries.some((e) => inSlot(e, slot) && this.catalogue.offeredTo(e, organisation))) continue;
        const next = nextOccurrence(slot, now, this.#ctx.calendar);
        if (!next) continue; // past the last supported date: the schedule has ended
        this.#ctx.scheduler.schedule<DailyReportsPayload>(
          DAILY_REPORTS_JOB,
          next.due,
          { organisation_id: organisation.id, date: next.date, slot },
          dailyJobId(organisation.id, next.date, slot),
          organisation.id,
        );
      }
    }
  }

  /** After the store was cleared (simulator reset): forget rendered files and, when scheduled, seed the schedule again. */
  reset(scheduled: boolean): void {
    this.files.clear();
    if (scheduled) this.seedSchedule();
  }

  #runDaily(job: Job<DailyReportsPayload>, now: Date): void {
    const { organisation_id, date, slot } = job.payload;
    const organisation = this.#ctx.organisations.get(organisation_id);
    if (!organisation) return; // the organisation left the fixtures: its schedule ends here
    pruneReports(
      { reports: this.reports, admissions: this.admissions, rows: this.#rows },
      organisation_id,
      now,
      this.#retentionDays,
    );
    for (const entry of this.catalogue.entries) {
      if (
        !inSlot(entry, slot) ||
        !this.catalogue.offeredTo(entry, organisation) ||
        !this.catalogue.arrivesOn(entry, date, this.#ctx.calendar)
      )
        continue;
      const name = `${organisation_id}|${entry.report_type}|${date}|${slot.london_time}`;
      const reportId = nameUuid(`report|${name}`);
      if (this.reports.rows.has(reportId)) continue; // this day's report already arrived
      const processing_date = this.#processingDate(entry, date);
      if (processing_date === undefined) continue; // its processing date would fall after the supported dates
      this.#arrive(
        { organisation_id, report_type: entry.report_type, processing_date },
        reportId,
        nameUuid(`admission|${name}`),
      );
    }
    const next = nextOccurrence(slot, now, this.#ctx.calendar);
    if (!next) return; // past the last supported date: the schedule has ended
    this.#ctx.scheduler.schedule<DailyReportsPayload>(
      DAILY_REPORTS_JOB,
      next.due,
      { organisation_id, date: next.date, slot },
      dailyJobId(organisation_id, next.date, slot),
      organisation_id,
    );
  }

  /** The processing date of an arrival on `date`, or undefined when it lies outside the supported dates. */
  #processingDate(entry: CatalogueEntry, date: string): string | undefined {
    try {
      return processingDateFor(entry.schedule.processing_date, date, this.#ctx.calendar);
    } catch (err) {
      if (err instanceof DateRangeError) return undefined;
      throw err;
    }
  }

  #arrive(input: ArrivalInput, reportId: string, admissionId: string): { report: Report; admission: ReportAdmission } {
    const entry = this.catalogue.get(input.report_type);
    if (!entry)
      throw invalid(
        `report_type ${input.report_type} is not in the report catalogue; known: ${this.catalogue.types.join(', ')}`,
      );
    const organisation = this.#ctx.organisations.get(input.organisation_id);
    if (!organisation) throw invalid(`organisation_id ${input.organisation_id} is not a known organisation`);
    if (!this.catalogue.offeredTo(entry, organisation)) {
      throw new DomainError(
        'unprocessable',
        `report_type ${entry.report_type} is only available to organisations that sponsor other participants`,
      );
    }
    const problem = input.processing_date === undefined ? undefined : dateProblem(input.processing_date);
    if (problem) throw invalid(`processing_date ${problem}`);
    const now = this.#ctx.clock.now();
    const processing_date =
      input.processing_date ?? processingDateFor(entry.schedule.processing_date, londonDate(now), this.#ctx.calendar);
    const attributes: ReportAttributes = {
      report_type: entry.report_type,
      report_type_description: entry.report_type_description,
      generation_time: isoTimestamp(now),
      processing_date,
      report_source: entry.report_source,
      formats: [...entry.formats],
    };
    const report = this.reports.create({
      id: reportId,
      organisation_id: organisation.id,
      attributes,
      relationships: { report_admission: { data: [{ id: admissionId, type: REPORT_ADMISSION_TYPE }] } },
    });
    if (input.rows) this.#rows.put({ id: report.id, rows: structuredClone(input.rows) });
    const admission = this.admissions.create({
      id: admissionId,
      organisation_id: organisation.id,
      attributes: { admission_datetime: isoTimestamp(now), ...(input.admission ?? { status: 'delivery_confirmed' }) },
      relationships: { report: { data: [ref(report)] } },
    });
    return { report, admission };
  }

  async #render(report: Report, format: ReportFormat): Promise<Uint8Array> {
    const doc = await this.content(report);
    switch (format) {
      case 'pdf':
        return renderPdf(doc.view(), report.attributes.generation_time);
      case 'xml':
        return new TextEncoder().encode(doc.xml());
      case 'zipped_xhtml':
        return renderZippedXhtml(doc.view(), report.attributes.generation_time);
    }
  }
}
