// Notifications on any target: the envelope Form3 promises around a record, and the record itself
// compared to what a GET of the same record answers, as a receiver that trusts the notification
// relies on.
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import { expectSame } from '../support/divergence.ts';
import { lastNotification } from '../support/notifications.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { pick, type SimWorld } from '../support/world.ts';

interface RecordBody {
  id?: string;
  type?: string;
  organisation_id?: string;
  version?: number;
  attributes?: unknown;
  relationships?: Record<string, { data?: Array<{ id?: string; type?: string }> }>;
}

/**
 * The record with each relationship reduced to the ids and types it names: a related resource
 * embedded in it (a submission's claim) moves on by itself, and is compared by its own GET.
 */
function related(r: RecordBody): RecordBody {
  if (!r.relationships) return r;
  const relationships = Object.fromEntries(
    Object.entries(r.relationships).map(([k, v]) => [
      k,
      { data: (v.data ?? []).map(({ id, type }) => ({ id, type })) },
    ]),
  );
  return { ...r, relationships };
}

Then(
  'the notification envelope is Form3’s for a {string} of {string}',
  async function (this: SimWorld, eventType: string, recordType: string) {
    const n = lastNotification(this).json as Record<string, unknown>;
    assertMatchesSchema('notification', n);
    const kase = `${eventType} notification of ${recordType}`;
    await expectSame(
      this,
      `${kase}: envelope`,
      { event_type: eventType, record_type: recordType, organisation_id: this.vars.organisation_id },
      { event_type: n.event_type, record_type: n.record_type, organisation_id: n.organisation_id },
    );
    // The record inside is of the type subscribed to, in the same organisation.
    await expectSame(
      this,
      `${kase}: record`,
      { type: recordType, organisation_id: this.vars.organisation_id },
      { type: pick(n, 'data.data.type'), organisation_id: pick(n, 'data.data.organisation_id') },
    );
  },
);

/** The record a notification carries: its `data` is the record's GET body. */
function notifiedRecord(world: SimWorld): RecordBody {
  const record = pick(lastNotification(world).json, 'data.data') as RecordBody | undefined;
  assert.ok(record && typeof record === 'object', 'the notification carries no record at data.data');
  return record;
}

/** Compares a notified record with the record read by GET (or before a delete). */
async function compareRecords(world: SimWorld, kase: string, notified: RecordBody, read: RecordBody): Promise<void> {
  const identity = (r: RecordBody) => ({ id: r.id, type: r.type, organisation_id: r.organisation_id });
  await expectSame(world, `${kase}: identity`, identity(read), identity(notified));
  // A record that moved on since (a later version: a submission validated meanwhile on staging) is
  // compared by identity alone; the same version must be the same record.
  if (read.version !== notified.version) {
    assert.ok(
      (read.version ?? 0) > (notified.version ?? 0),
      `${kase}: the GET answers version ${read.version}, older than the notified ${notified.version}`,
    );
    return;
  }
  await expectSame(world, `${kase}: the record`, related(read), related(notified));
}

Then('the notification record is what a GET of {string} answers', async function (this: SimWorld, path: string) {
  const res = await this.send('GET', path);
  assert.equal(res.status, 200, `GET ${this.interpolate(path)}: ${res.status}${this.exchange}`);
  const read = pick(res.json, 'data') as RecordBody;
  const n = lastNotification(this).json as { event_type?: string; record_type?: string };
  await compareRecords(this, `${n.event_type} notification of ${n.record_type}`, notifiedRecord(this), read);
});

Then('the notification record is the one remembered as {string}', async function (this: SimWorld, name: string) {
  const read = JSON.parse(this.interpolate(`{{${name}}}`)) as RecordBody;
  const n = lastNotification(this).json as { event_type?: string; record_type?: string };
  await compareRecords(this, `${n.event_type} notification of ${n.record_type}`, notifiedRecord(this), read);
});
