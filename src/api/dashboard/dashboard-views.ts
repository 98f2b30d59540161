// The dashboard's pure part: what a record of the API looks like on the page (HTML strings), with
// no DOM and no fetch, so dashboard-views.test.ts runs the very text the browser runs.
export const DASHBOARD_VIEWS = `
const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (ch) => '&#' + ch.charCodeAt(0) + ';');
/** An ISO timestamp as it came, on one line. */
const ts = (s) => s ? '<time datetime="' + esc(s) + '">' + esc(s) + '</time>' : '';

/** The one related record a name verification carries whole (go-form3's relationships), if any. */
function related(nv, name) {
  const rel = nv.relationships && nv.relationships[name];
  return rel && rel.data && rel.data[0];
}

/**
 * Which side of a Confirmation of Payee exchange a name verification is (docs/cop.md): the
 * requester's, which asked and carries the submission (the payee bank's answer), or the payee
 * bank's, which received it and carries the admission.
 */
function sideOf(nv) {
  return related(nv, 'name_verification_admission') ? 'received' : 'asked';
}

const SIDE_OF_BANK = { asked: "requester's side", received: "payee bank's side" };

/** The payee bank's copy of a request holds what the Open Banking request carried of the asked one. */
function sameRequest(asked, received) {
  const a = asked.attributes;
  const r = received.attributes;
  return a.bank_id === r.bank_id && a.account_number === r.account_number &&
    (a.name || []).join(' ') === (r.name || []).join(' ') &&
    (a.secondary_identification || '') === (r.secondary_identification || '') &&
    (a.account_classification === 'business' ? 'business' : 'personal') === r.account_classification;
}

/** A submission and an admission of one exchange hold the one answer the payee's bank gave. */
function sameAnswer(submission, admission) {
  return (submission.status === 'delivery_confirmed') === (admission.status === 'confirmed') &&
    submission.answer === admission.answer && submission.reason_code === admission.reason_code &&
    submission.actual_name === admission.actual_name && submission.status_reason === admission.status_reason;
}

/**
 * The two sides of one exchange, when the viewer's organisation holds both (it asked a sort code
 * it serves): answers { id: the other side's id }. The API names no link, so the match is made
 * from what is sure of one exchange: the asked record was created before the received one, carries
 * the same account, name and classification, and its submission holds the same answer and was
 * written at the same scheme instant as the received record or before it (a running clock may tick
 * between the two writes). Of several, the one whose submission was written last (a slower
 * responder's answer arrives later), then the oldest. \`list\` is oldest first, as the API lists.
 */
function exchangesOf(list) {
  const partner = {};
  list.forEach((received, i) => {
    const admission = related(received, 'name_verification_admission');
    if (!admission) return;
    let best;
    let bestAt;
    for (let j = 0; j < i; j++) {
      const asked = list[j];
      const submission = related(asked, 'name_verification_submission');
      if (!submission || partner[asked.id] || !sameRequest(asked, received)) continue;
      if (!sameAnswer(submission.attributes, admission.attributes) || submission.created_on > received.created_on) continue;
      if (best === undefined || submission.created_on > bestAt) { best = asked; bestAt = submission.created_on; }
    }
    if (best) { partner[best.id] = received.id; partner[received.id] = best.id; }
  });
  return partner;
}

function answerOf(a) {
  if (!a) return 'awaiting the answer';
  if (a.status === 'delivery_failed' || a.status === 'failed') return a.status + ': ' + (a.status_reason || '');
  if (a.answer === 'confirmed') return 'confirmed';
  return a.answer + ' ' + (a.reason_code || '') + (a.reason ? ' (' + a.reason + ')' : '') + (a.actual_name ? ': ' + a.actual_name : '');
}

/**
 * A name verification as a list item: its side named first, and a link to the other side of its
 * exchange when \`partnerId\` is known. Both sides carry the asked record's id as data-exchange.
 */
function nameVerificationItem(nv, partnerId) {
  const side = sideOf(nv);
  const a = nv.attributes;
  const answered = related(nv, side === 'asked' ? 'name_verification_submission' : 'name_verification_admission');
  const from = side === 'received'
    ? 'from ' + esc(answered.attributes.debtor_party && answered.attributes.debtor_party.account_with.bank_name) + ', answered '
    : 'answer ';
  const exchange = side === 'asked' ? nv.id : partnerId;
  const link = partnerId
    ? ' <a class="exchange" href="#nv-' + esc(partnerId) + '">' + (side === 'asked' ? 'its received side' : 'its asked side') + '</a>'
    : '';
  return '<li class="name-verification" id="nv-' + esc(nv.id) + '" data-name-verification="' + esc(nv.id) +
    '" data-side="' + side + '"' + (exchange ? ' data-exchange="' + esc(exchange) + '"' : '') + '>' +
    '<span class="side ' + side + '">' + side + '</span> <span class="muted">' + SIDE_OF_BANK[side] + '</span> ' +
    esc(a.bank_id) + ' ' + esc(a.account_number) + ' "' + esc((a.name || []).join(' ')) + '": ' + from +
    '<span class="answer">' + esc(answerOf(answered && answered.attributes)) + '</span>' + link + '</li>';
}

/**
 * An account as a table row: id, its name (the lines of \`name\` joined) and alternative names, sort
 * code (bank_id), number (else the IBAN), organisation, created (scheme time).
 */
function accountRow(account) {
  const a = account.attributes;
  const also = (a.alternative_names || []).length ? '<br><span class="muted">also ' + a.alternative_names.map(esc).join(', ') + '</span>' : '';
  return '<tr class="account" data-account="' + esc(account.id) + '"><td><span class="id">' + esc(account.id) + '</span></td>' +
    '<td class="names">' + esc((a.name || []).join(' ')) + also + '</td>' +
    '<td class="bank-id"><span class="ts">' + esc(a.bank_id) + '</span>' + (a.bank_id_code ? ' <span class="muted">' + esc(a.bank_id_code) + '</span>' : '') + '</td>' +
    '<td class="number"><span class="ts">' + esc(a.account_number || a.iban) + '</span></td>' +
    '<td><span class="id">' + esc(account.organisation_id) + '</span></td>' +
    '<td class="created">' + ts(account.created_on) + '</td></tr>';
}

const ACCOUNT_HEADINGS = ['id', 'name', 'sort code (bank_id)', 'account number', 'organisation', 'created (scheme time)'];

/** A journal entry as a table row: the wall time it arrived and the scheme clock's time then. */
function requestRow(e) {
  const a = e.attributes;
  return '<tr><td class="wall">' + ts(a.time) + '</td><td class="scheme">' + ts(a.scheme_time) + '</td><td>' +
    esc(a.method) + ' ' + esc(a.path) + '</td><td>' + esc(a.status) + '</td><td>' + esc(a.duration_ms) + '</td><td>' +
    '<span class="id">' + esc(a.error_code ?? '') + '</span></td></tr>';
}

const REQUEST_HEADINGS = ['wall time', 'scheme time', 'request', 'status', 'ms', 'error_code'];

function table(headings, rows) {
  return '<table><tr>' + headings.map((h) => '<th>' + esc(h) + '</th>').join('') + '</tr>' + rows.join('') + '</table>';
}
`;
