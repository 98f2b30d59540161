// The dashboard's script: a static page over the API, no build step. The token is kept in the
// page's memory only (never stored); with --auth off the page opens without signing in. Every
// request names the dashboard (x-scheme-sim-tool), so its polling stays out of the request journal.
// How a record looks (HTML from the API's JSON) is in dashboard-views.ts, tested apart.
import { DASHBOARD_VIEWS } from './dashboard-views.ts';

export const DASHBOARD_SCRIPT = `
'use strict';
${DASHBOARD_VIEWS}
let token = null;
const $ = (id) => document.getElementById(id);
const TOOL = { 'x-scheme-sim-tool': 'dashboard' };

async function api(method, path, body) {
  const headers = { accept: 'application/json', ...TOOL };
  if (token) headers.authorization = 'Bearer ' + token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const json = text ? JSON.parse(text) : {};
  if (!res.ok) throw new Error(res.status + ': ' + (json.error_message || text));
  return json;
}

function show(id, html) { $(id).innerHTML = html; }
function fail(err) { show('message', '<p class="error">' + esc(err.message) + '</p>'); }

async function signIn(event) {
  event.preventDefault();
  const basic = btoa($('client-id').value + ':' + $('client-secret').value);
  const res = await fetch('/v1/oauth2/token', {
    method: 'POST',
    headers: { authorization: 'Basic ' + basic, 'content-type': 'application/x-www-form-urlencoded', ...TOOL },
    body: 'grant_type=client_credentials',
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) return fail(new Error('sign-in refused: ' + (json.error_message || res.status)));
  token = json.access_token;
  opened();
}

function opened() {
  $('signin').hidden = true;
  $('panels').hidden = false;
  refresh().catch(fail);
}

// One refresh at a time, in the order asked: a refresh asked after a change (an advance, an ask)
// renders after the one before it, never overwritten by its older reads.
let refreshed = Promise.resolve();
function refresh() {
  const load = async () => {
    show('message', '');
    await Promise.all([clock(), claims(), nameVerifications(), accounts.load(), deliveries(), reports.load(), requests()]);
  };
  refreshed = refreshed.catch(() => {}).then(load);
  return refreshed;
}

/**
 * The newest n records of a list (listed oldest first, as Form3 lists them), newest first:
 * the last page, topped up from the one before; with before, the n records before that id.
 */
async function newest(path, n, before) {
  const sep = path.includes('?') ? '&' : '?';
  if (before) return (await api('GET', path + sep + 'page[before]=' + encodeURIComponent(before) + '&page[size]=' + n)).data.reverse();
  const last = await api('GET', path + sep + 'page[number]=last&page[size]=' + n);
  let items = last.data;
  if (items.length < n && last.links.prev && items.length > 0)
    items = (await api('GET', path + sep + 'page[before]=' + encodeURIComponent(items[0].id) + '&page[size]=' + (n - items.length))).data.concat(items);
  return items.reverse();
}

async function clock() {
  const c = (await api('GET', '/v1/simulator/clock')).data;
  show('clock-now', 'scheme time ' + ts(c.now) + ' (' + esc(c.mode) + ')');
  show('header-now', 'scheme clock ' + ts(c.now) + ' · London <span class="ts">' + esc(c.london_date) + '</span>');
  const from = c.london_date;
  const to = new Date(Date.parse(from) + 60 * 86400000).toISOString().slice(0, 10);
  const cal = (await api('GET', '/v1/simulator/calendar?from=' + from + '&to=' + to)).data;
  const days = cal.working_days.slice(0, 30);
  const holidays = cal.holidays.map((h) => '<li>' + esc(h.date) + ' ' + esc(h.name) + '</li>').join('');
  show('calendar', '<ol class="days">' + days.map((d) => '<li>' + esc(d) + '</li>').join('') + '</ol>' +
    (holidays ? '<p>Holidays:</p><ul>' + holidays + '</ul>' : ''));
}

const STEPS = [
  ['D0', 'submission_date', 'validation, release'],
  ['D0+1', 'processing_date', 'queued_for_delivery, sequence number'],
  ['D0+2', 'delivery_date', 'delivery_confirmed'],
  ['D0+11', 'reversal_deadline', 'last day to reverse'],
  ['D0+14', 'settlement_date', 'contra payment'],
];

async function claims() {
  const list = await newest('/v1/transaction/claims', 20);
  const today = (await api('GET', '/v1/simulator/clock')).data.london_date;
  const rows = await Promise.all(list.map(async (claim) => {
    const ref = claim.relationships && claim.relationships.claim_submission && claim.relationships.claim_submission.data[0];
    if (!ref) return '<li class="claim" data-claim="' + esc(claim.id) + '">' + esc(claim.attributes.reference) + ': not submitted</li>';
    const s = (await api('GET', '/v1/transaction/claims/' + claim.id + '/submissions/' + ref.id)).data.attributes;
    const payment = claim.relationships.payment && claim.relationships.payment.data[0];
    const steps = STEPS.map(([label, field, what]) => {
      const date = s[field];
      const state = date && date <= today ? 'done' : 'ahead';
      const contra = label === 'D0+14' && payment ? ' <span class="contra">contra ' + esc(payment.id) + '</span>' : '';
      return '<li class="' + state + '">' + label + ' <span class="ts">' + esc(date) + '</span>: ' + esc(what) + contra + '</li>';
    }).join('');
    return '<li class="claim" data-claim="' + esc(claim.id) + '"><strong>' + esc(claim.attributes.reference) + '</strong> ' +
      '<span class="status">' + esc(s.status) + '</span>' + (s.status_reason ? ' (' + esc(s.status_reason) + ')' : '') +
      '<ol class="timeline">' + steps + '</ol></li>';
  }));
  show('claims', rows.length ? '<ul class="claims">' + rows.join('') + '</ul>' : '<p>No claims yet.</p>');
}

// The caller's organisation, for a create body: the token's claims (scheme-sim tokens are
// <claims>.<hmac>, a sandbox's sbx_<id>.<claims>.<hmac>); without a token (--auth off), the one the live log's ready event names.
function organisation() {
  if (token) { const parts = token.split('.'); return Promise.resolve(JSON.parse(atob(parts[parts.length - 2].replace(/-/g, '+').replace(/_/g, '/'))).organisation_id); }
  return new Promise((resolve, reject) => {
    const stream = new EventSource('/v1/simulator/stream?filter[kind]=reset');
    stream.addEventListener('ready', (e) => { stream.close(); resolve(JSON.parse(e.data).organisation_id); });
    stream.onerror = () => { stream.close(); reject(new Error('cannot tell the organisation (the live log did not answer)')); };
  });
}

async function askNameVerification() {
  const name = $('nv-name').value.trim();
  await api('POST', '/v1/organisation/nameverifications', { data: { id: crypto.randomUUID(), organisation_id: await organisation(),
    attributes: { account_classification: $('nv-business').checked ? 'business' : 'personal', account_number: $('nv-account').value.trim(),
      account_number_code: 'BBAN', bank_id: $('nv-sort-code').value.trim(), bank_id_code: 'GBDSC', name: name ? [name] : [] } } });
}

// The newest 50, each labelled with its side; both sides of an exchange the viewer holds are linked.
async function nameVerifications() {
  const oldestFirst = (await newest('/v1/organisation/nameverifications', 50)).reverse();
  const partner = exchangesOf(oldestFirst);
  const rows = oldestFirst.slice().reverse().map((nv) => nameVerificationItem(nv, partner[nv.id]));
  show('name-verifications', rows.length ? '<ul class="name-verifications">' + rows.join('') + '</ul>' : '<p>No name verifications yet.</p>');
}

async function deliveries() {
  const subs = (await api('GET', '/v1/notification/subscriptions')).data;
  const attempts = await newest('/v1/simulator/deliveries', 20);
  const pending = (await api('GET', '/v1/simulator/deliveries/pending?page[size]=50')).data;
  show('pending', pending.length ? '<ul>' + pending.map((d) => '<li>' + esc(d.attributes.notification.event_type) + ' ' +
    esc(d.attributes.notification.record_type) + ': attempt ' + (d.attributes.attempts + 1) + ' at ' +
    ts(d.attributes.next_attempt_at) + ' wall time' + (d.attributes.status_reason ? ' (' + esc(d.attributes.status_reason) + ')' : '') +
    '</li>').join('') + '</ul>' : '<p>Nothing pending.</p>');
  show('subscriptions', subs.length ? '<ul>' + subs.map((s) => '<li>' + esc(s.attributes.event_type) + ' ' +
    esc(s.attributes.record_type) + ' → ' + esc((s.attributes.callback_uris || []).map((c) => c.callback_uri).join(', ') || s.attributes.callback_uri) +
    '</li>').join('') + '</ul>' : '<p>No subscriptions.</p>');
  show('deliveries', attempts.length ? '<div class="scroll"><table><tr><th>attempted (wall time)</th><th>record</th><th>status</th><th></th></tr>' +
    attempts.map((a) => '<tr><td>' + ts(a.attributes.attempted_at) + '</td><td>' + esc(a.attributes.event_type) + ' ' +
      esc(a.attributes.record_type) + '</td><td>' + esc(a.attributes.status) + ' ' + esc(a.attributes.response_code ?? '') +
      '</td><td><button class="small" data-redeliver="' + esc(a.attributes.notification_id) + '">redeliver</button></td></tr>').join('') +
    '</table></div>' : '<p>No delivery attempts.</p>');
}

/**
 * A list shown newest first, \`size\` a page, in the panel \`name\` (its #NAME-newer, #NAME-older and
 * #NAME-page): older pages by cursor (the oldest id shown), newer by going back. One record more
 * than shown is read, so Older is offered only when there is an older page.
 */
function pager(name, path, size, render) {
  const cursors = [];
  let before;
  const load = async () => {
    const read = await newest(path, size + 1, before);
    const list = read.slice(0, size);
    render(list);
    $(name + '-newer').disabled = cursors.length === 0;
    $(name + '-older').disabled = read.length <= size;
    $(name + '-older').dataset.before = list.length ? list[list.length - 1].id : '';
    show(name + '-page', 'page ' + (cursors.length + 1));
  };
  return {
    load,
    older(cursor) { cursors.push(before); before = cursor; return load(); },
    newer() { before = cursors.pop(); return load(); },
  };
}

// Reports newest first, ten a page.
const reports = pager('reports', '/v1/notification/reports', 10, (list) =>
  show('reports', list.length ? '<div class="scroll"><table><tr><th>arrived (scheme time)</th><th>report</th><th>download</th></tr>' +
    list.map((r) => '<tr class="report" data-report-id="' + esc(r.id) + '"><td>' + ts(r.created_on) + '</td><td>' +
      esc(r.attributes.report_type) + '<br><span class="muted">processing <span class="ts">' + esc(r.attributes.processing_date) +
      '</span></span></td><td class="formats">' +
      r.attributes.formats.map((f) => '<button class="small" data-report="' + esc(r.id) + '" data-format="' + esc(f) + '">' + esc(f) + '</button>').join(' ') +
      '</td></tr>').join('') + '</table></div>' : '<p>No reports yet.</p>'));

// The accounts of the world signed into (the default one, or a sandbox), newest first, ten a page.
const accounts = pager('accounts', '/v1/organisation/accounts', 10, (list) =>
  show('accounts', list.length ? '<div class="scroll">' + table(ACCOUNT_HEADINGS, list.map(accountRow)) + '</div>' : '<p>No accounts yet.</p>'));

async function requests() {
  const q = new URLSearchParams({ 'page[size]': '50' });
  for (const f of ['status', 'method', 'path']) if ($('rq-' + f).value) q.set('filter[' + f + ']', $('rq-' + f).value);
  const list = (await api('GET', '/v1/simulator/requests?' + q)).data;
  show('requests', table(REQUEST_HEADINGS, list.map(requestRow)));
}

const MEDIA = { pdf: 'application/pdf', xml: 'application/xml', zipped_xhtml: 'application/xhtml+zip' };
const EXTENSION = { pdf: 'pdf', xml: 'xml', zipped_xhtml: 'zip' };

async function download(id, format) {
  const headers = { accept: MEDIA[format] || '*/*', ...TOOL };
  if (token) headers.authorization = 'Bearer ' + token;
  const res = await fetch('/v1/notification/reports/' + id + '/content', { headers });
  if (!res.ok) throw new Error('download refused: ' + res.status);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = id + '.' + (EXTENSION[format] || 'bin');
  link.click();
}

document.addEventListener('click', (event) => {
  const t = event.target;
  if (!(t instanceof HTMLElement)) return;
  const act = (p) => p.then(refresh).catch(fail);
  if (t.id === 'advance') act(api('POST', '/v1/simulator/clock/advance', { working_days: Number($('advance-days').value) }));
  if (t.id === 'freeze') act(api('POST', '/v1/simulator/clock/freeze'));
  if (t.id === 'resume') act(api('POST', '/v1/simulator/clock/resume', {}));
  if (t.id === 'nv-ask') act(askNameVerification());
  if (t.id === 'refresh' || t.id === 'rq-apply') refresh().catch(fail);
  if (t.dataset.redeliver) act(api('POST', '/v1/simulator/deliveries/' + t.dataset.redeliver + '/redeliver'));
  if (t.dataset.report) download(t.dataset.report, t.dataset.format).catch(fail);
  const pagers = { reports, accounts };
  const paged = /^(reports|accounts)-(older|newer)$/.exec(t.id);
  if (paged) {
    const p = pagers[paged[1]];
    (paged[2] === 'older' ? p.older(t.dataset.before) : p.newer()).catch(fail);
  }
  if (t.id === 'use-dev') {
    $('client-id').value = t.dataset.id;
    $('client-secret').value = t.dataset.secret;
  }
});
$('signin').addEventListener('submit', (e) => signIn(e).catch(fail));
// The sign-in form stays unless the server asks for no credentials (/health says auth: on or off).
fetch('/health', { headers: TOOL }).then((r) => r.json()).then((h) => { if (h.auth !== 'on') opened(); });
`;
