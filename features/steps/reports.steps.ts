// Report downloads: follow a links.<format> entry of a report (href + meta.content-type) and open
// the file with an ordinary parser. The links come from a report envelope remembered with
// `I remember the response field "links" as "<name>"`.
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import { parseXml, pdfText, unzipXhtml, xpathValues } from '../support/report-files.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { pick, type SimWorld } from '../support/world.ts';

const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  xml: 'application/xml',
  zipped_xhtml: 'application/xhtml+zip',
};

interface FormatLink {
  href: string;
  meta?: { 'content-type'?: string };
}

When('I download the {string} link of {string}', async function (this: SimWorld, format: string, linksName: string) {
  const links = JSON.parse(this.interpolate(`{{${linksName}}}`)) as Record<string, FormatLink>;
  const link = links[format];
  assert.ok(link, `no links.${format} in ${JSON.stringify(links)}`);
  const type = link.meta?.['content-type'];
  assert.equal(type, MEDIA_TYPES[format], `links.${format}.meta.content-type`);
  await this.send('GET', link.href, { headers: { accept: type! } });
});

/** The text a reader of the file would see: PDF text, the XML, or the XHTML inside the zip. */
async function openFile(format: string, bytes: Uint8Array): Promise<string> {
  switch (format) {
    case 'pdf': {
      assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), '%PDF-', 'a PDF starts with %PDF-');
      return (await pdfText(bytes)).text;
    }
    case 'xml': {
      const text = new TextDecoder().decode(bytes);
      const doc = parseXml(text);
      // Bacs advices and reports are BACSDocument, the DDIC advice VocaDocument, ours FPSDocument.
      const root = Object.keys(doc).find((k) => !k.startsWith('?'));
      assert.ok(root && doc[root]?.Data, `the XML has <root>/Data (root ${root})`);
      return text;
    }
    case 'zipped_xhtml': {
      const { xhtml, doc } = unzipXhtml(bytes);
      assert.equal(doc.html?.['@_xmlns'], 'http://www.w3.org/1999/xhtml', 'report.xhtml is XHTML');
      return xhtml;
    }
    default:
      throw new Error(`unknown report format ${format}`);
  }
}

Then(
  'the response is a valid {string} file containing {string}',
  async function (this: SimWorld, format: string, expected: string) {
    const res = this.response;
    assert.equal(res.status, 200, `download failed: ${res.status} ${res.text.slice(0, 300)}`);
    assert.equal(res.headers.get('content-type'), MEDIA_TYPES[format]);
    const text = await openFile(format, res.bytes);
    for (const part of this.interpolate(expected).split('|'))
      assert.ok(text.includes(part), `the ${format} file does not contain "${part}"`);
  },
);

// The notification of a report's arrival (docs/design.md: `data` is the admission's GET body, whose
// relationships.report.data holds the Report) names the report to fetch.
When(
  'I remember the report of the {string} report_admissions notification as {string}',
  async function (this: SimWorld, reportType: string, name: string) {
    const reportOf = (json: unknown) =>
      (
        json as {
          data?: {
            data?: {
              relationships?: { report?: { data?: Array<{ id: string; attributes?: { report_type?: string } }> } };
            };
          };
        }
      )?.data?.data?.relationships?.report?.data?.[0];
    const hit = await this.receiver.waitFor((r) => {
      const j = r.json as { record_type?: string; event_type?: string } | undefined;
      return (
        j?.record_type === 'report_admissions' &&
        j.event_type === 'created' &&
        reportOf(r.json)?.attributes?.report_type === reportType
      );
    });
    const report = reportOf(hit.json)!;
    this.vars[name] = report.id;
  },
);

/** The XML of the last download, for XPath questions (the way a client's parser reads the file). */
function downloadedXml(world: SimWorld): string {
  const res = world.response;
  assert.equal(res.status, 200, `download failed: ${res.status} ${res.text.slice(0, 300)}`);
  assert.equal(res.headers.get('content-type'), MEDIA_TYPES.xml, 'the last download is an XML file');
  return new TextDecoder().decode(res.bytes);
}

// The last downloaded XML file, asked an XPath 1.0 question as a client's parser would: it selects a non-empty value.
Then('the XML file selects {string}', function (this: SimWorld, expression: string) {
  const values = xpathValues(downloadedXml(this), this.interpolate(expression));
  assert.ok(values.length > 0 && values.some((v) => v !== ''), `the XPath ${expression} selects nothing`);
});

// The values an XPath selects in the last downloaded XML file, in order, `|` between them.
Then("the XML file's {string} is {string}", function (this: SimWorld, expression: string, expected: string) {
  const values = xpathValues(downloadedXml(this), this.interpolate(expression));
  assert.deepEqual(values, this.interpolate(expected).split('|'), `the XPath ${expression}`);
});

// Downloads each format a report's links offer and checks each file opens and holds every `|`-separated text.
When(
  'I download every format of {string}, each a valid file containing {string}',
  async function (this: SimWorld, linksName: string, expected: string) {
    const links = JSON.parse(this.interpolate(`{{${linksName}}}`)) as Record<string, FormatLink>;
    const formats = Object.keys(links).filter((f) => f in MEDIA_TYPES);
    assert.ok(formats.includes('pdf') && formats.includes('xml'), `links offer pdf and xml: ${formats.join(', ')}`);
    for (const format of formats) {
      await this.send('GET', links[format]!.href, { headers: { accept: MEDIA_TYPES[format]! } });
      assert.equal(this.response.status, 200, `${format}: ${this.response.status} ${this.response.text.slice(0, 300)}`);
      const text = await openFile(format, this.response.bytes);
      for (const part of this.interpolate(expected).split('|'))
        assert.ok(text.includes(part), `the ${format} file does not contain "${part}"`);
    }
  },
);

/** How many listed reports the next step opens: staging may list hundreds. */
const REPORTS_OPENED = 5;

// An empty list fails: a step that loops over nothing checks nothing (issue 45). A scenario that
// may meet an empty list makes sure of a report first, or skips saying why
// ("a report the target lists, …", reports-any-target.steps.ts).
Then(
  'every listed report fetches, with its admission, and downloads in each format it offers',
  async function (this: SimWorld) {
    const listed = ((this.response.json as { data?: Array<{ id: string }> }).data ?? []).slice(0, REPORTS_OPENED);
    assert.ok(listed.length > 0, `the list holds no report: there is nothing to fetch or download${this.exchange}`);
    for (const { id } of listed) {
      const one = await this.send('GET', `/v1/notification/reports/${id}`);
      assert.equal(one.status, 200, `GET report ${id}: ${one.status}${this.exchange}`);
      assertMatchesSchema('report-single', one.json);
      const admission = pick(one.json, 'data.relationships.report_admission.data.0.id');
      assert.equal(typeof admission, 'string', `report ${id} names no report_admission${this.exchange}`);
      const a = await this.send('GET', `/v1/notification/reports/${id}/admissions/${admission}`);
      assert.equal(a.status, 200, `GET the admission of report ${id}: ${a.status}${this.exchange}`);
      assertMatchesSchema('report-admission-single', a.json);
      const links = (pick(one.json, 'links') ?? {}) as Record<string, FormatLink>;
      const formats = (pick(one.json, 'data.attributes.formats') ?? []) as string[];
      assert.ok(formats.length > 0, `report ${id} offers no format to download${this.exchange}`);
      for (const format of formats) {
        const link = links[format];
        assert.ok(link, `report ${id} offers ${format} but has no links.${format}`);
        const file = await this.send('GET', link.href, { headers: { accept: MEDIA_TYPES[format]! } });
        assert.equal(file.status, 200, `downloading ${format} of report ${id}: ${file.status}${this.exchange}`);
        assert.equal(file.headers.get('content-type'), MEDIA_TYPES[format]);
        await openFile(format, file.bytes);
      }
    }
    this.vars.reports_opened = String(listed.length);
  },
);
