// Reports on any target: the reports the target itself lists in the last working days (staging's
// real ones), each checked only for what Form3 promises of a report (its JSON, its admission, each
// offered format answering its Accept type with a file of that format) and for what the double
// offers (the formats of its type, the XML's structure by its type's XSD).
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import { expectSame } from '../support/divergence.ts';
import { schemeToday } from '../support/journeys.ts';
import { doubleFormats, magicProblem, REPORT_MEDIA_TYPES, reportWindowStart } from '../support/report-checks.ts';
import { pdfText, unzipXhtml } from '../support/report-files.ts';
import { xsdProblems } from '../support/report-xsd.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { readSettings } from '../support/settings.ts';
import { pick, type SimWorld } from '../support/world.ts';

/** At most this many reports of a type are opened: staging may list one a day for weeks. */
const OPENED_PER_TYPE = 3;

/** The type a simulator is given when a scenario needs a report: it offers all three formats. */
const INJECTED_REPORT_TYPE = 'BACS_ARUDD';

interface Listed {
  id: string;
  attributes?: { report_type?: string; processing_date?: string };
}

Given(
  'the {string} reports the target lists for the last working days',
  async function (this: SimWorld, reportType: string) {
    const settings = readSettings();
    const from = reportWindowStart(settings, schemeToday(settings));
    const res = await this.send(
      'GET',
      `/v1/notification/reports?filter[report_type]=${reportType}&filter[processing_date_from]=${from}&page[size]=100`,
    );
    assert.equal(res.status, 200, `listing ${reportType} reports: ${res.status}${this.exchange}`);
    assertMatchesSchema('report-list', res.json);
    const listed = ((res.json as { data?: Listed[] }).data ?? []).filter(
      (r) => r.attributes?.report_type === reportType,
    );
    const others = ((res.json as { data?: Listed[] }).data ?? []).length - listed.length;
    assert.equal(
      others,
      0,
      `filter[report_type]=${reportType} listed ${others} report(s) of other types${this.exchange}`,
    );
    if (listed.length === 0) {
      this.log(
        `skipped: ${this.target.baseUrl} lists no ${reportType} report processed since ${from} (CONFORMANCE_REPORT_DAYS)`,
      );
      return 'skipped';
    }
    this.state.reports = listed.slice(0, OPENED_PER_TYPE);
    this.vars.report_type = reportType;
    return undefined;
  },
);

/**
 * A report for the list's steps to open, so that they never pass on an empty list: a simulator
 * (in process or running) is given one through its own injection route; staging's list is what
 * arrived, and when it holds none the scenario is skipped, saying so.
 */
Given('a report the target lists, injected when the target is a simulator', async function (this: SimWorld) {
  if (this.target.name !== 'staging') {
    const res = await this.send('POST', '/v1/simulator/reports', {
      body: JSON.stringify({ report_type: INJECTED_REPORT_TYPE }),
    });
    assert.equal(res.status, 201, `injecting a ${INJECTED_REPORT_TYPE} report: ${res.status}${this.exchange}`);
    return undefined;
  }
  const res = await this.send('GET', '/v1/notification/reports?page[size]=1');
  assert.equal(res.status, 200, `listing reports: ${res.status}${this.exchange}`);
  if (((res.json as { data?: unknown[] }).data ?? []).length > 0) return undefined;
  this.log(`skipped: ${this.target.baseUrl} lists no report for the organisation; there is nothing to fetch`);
  return 'skipped';
});

function listedReports(world: SimWorld): Listed[] {
  const listed = world.state.reports as Listed[] | undefined;
  assert.ok(listed, 'no reports listed: use "the <type> reports the target lists for the last working days" first');
  return listed;
}

/** Opens a downloaded file as its format's reader would; the problem, or undefined when it opens. */
async function fileProblem(format: string, reportType: string, bytes: Uint8Array): Promise<string | undefined> {
  const magic = magicProblem(format, bytes);
  if (magic) return magic;
  try {
    if (format === 'pdf') {
      const { pages } = await pdfText(bytes);
      return pages > 0 ? undefined : 'the PDF has no page';
    }
    if (format === 'xml') {
      const problems = xsdProblems(new TextDecoder().decode(bytes), reportType);
      return problems && `the XML does not validate against ${reportType.toLowerCase()}.xsd: ${problems.slice(0, 600)}`;
    }
    const { doc } = unzipXhtml(bytes);
    const ns = doc.html?.['@_xmlns'];
    return ns === 'http://www.w3.org/1999/xhtml' ? undefined : `report.xhtml is not XHTML (html xmlns ${ns})`;
  } catch (err) {
    return `the ${format} file does not open: ${(err as Error).message}`;
  }
}

Then('each of them offers the formats the double offers for its type', async function (this: SimWorld) {
  const reportType = this.vars.report_type!;
  const expected = doubleFormats(reportType);
  assert.ok(expected, `the double has no report type ${reportType}`);
  for (const report of listedReports(this)) {
    const offered = (report.attributes as { formats?: string[] } | undefined)?.formats ?? [];
    await expectSame(
      this,
      `${reportType} report ${report.id}: formats`,
      [...expected].sort(),
      [...offered].sort(),
      'the formats the double offers for the type',
    );
  }
});

Then(
  'each of them fetches, with its admission naming it, and downloads in each format it offers',
  async function (this: SimWorld) {
    const reportType = this.vars.report_type!;
    for (const { id } of listedReports(this)) {
      const one = await this.send('GET', `/v1/notification/reports/${id}`, { headers: { accept: 'application/json' } });
      assert.equal(one.status, 200, `GET report ${id}: ${one.status}${this.exchange}`);
      assertMatchesSchema('report-single', one.json);
      assert.equal(pick(one.json, 'data.attributes.report_type'), reportType, `report ${id}'s report_type`);
      // The admission is what a report_admissions notification carries as its record: its
      // relationships.report.data holds the report, with the type a subscriber picks it by.
      const admission = pick(one.json, 'data.relationships.report_admission.data.0.id');
      assert.equal(typeof admission, 'string', `report ${id} names no report_admission${this.exchange}`);
      const a = await this.send('GET', `/v1/notification/reports/${id}/admissions/${admission}`);
      assert.equal(a.status, 200, `GET the admission of report ${id}: ${a.status}${this.exchange}`);
      assertMatchesSchema('report-admission-single', a.json);
      assert.equal(pick(a.json, 'data.relationships.report.data.0.id'), id, `admission ${admission} names its report`);
      assert.equal(
        pick(a.json, 'data.relationships.report.data.0.attributes.report_type'),
        reportType,
        `admission ${admission}'s report carries its report_type, as a notification does${this.exchange}`,
      );
      const links = (pick(one.json, 'links') ?? {}) as Record<string, { href: string; meta?: Record<string, string> }>;
      const formats = (pick(one.json, 'data.attributes.formats') ?? []) as string[];
      assert.ok(formats.length > 0, `report ${id} offers no format to download${this.exchange}`);
      for (const format of formats) {
        const type = REPORT_MEDIA_TYPES[format];
        assert.ok(type, `report ${id} offers ${format}, a format Form3 does not name`);
        const link = links[format];
        assert.ok(link, `report ${id} offers ${format} but has no links.${format}`);
        assert.equal(link.meta?.['content-type'], type, `report ${id}: links.${format}.meta.content-type`);
        const file = await this.send('GET', link.href, { headers: { accept: type } });
        assert.equal(file.status, 200, `downloading ${format} of report ${id}: ${file.status}${this.exchange}`);
        const where = `${reportType} report ${id}, ${format}`;
        await expectSame(this, `${where}: content-type`, type, file.headers.get('content-type')?.split(';')[0]);
        const problem = await fileProblem(format, reportType, file.bytes);
        await expectSame(this, `${where}: the file`, 'opens as its format', problem ?? 'opens as its format');
      }
      // Form3 answers 406 "Report not available in acceptable format" for the others.
      for (const [, type] of Object.entries(REPORT_MEDIA_TYPES).filter(([f]) => !formats.includes(f))) {
        const refused = await this.send('GET', `/v1/notification/reports/${id}`, { headers: { accept: type } });
        await expectSame(this, `${reportType} report ${id}: Accept ${type}, not offered`, 406, refused.status);
      }
    }
  },
);
