// The dashboard's HTML: the page a person opens in a browser to watch and drive a running simulator
// (its script and stylesheet are their own files).
import { DASHBOARD_SCRIPT } from './dashboard-script.ts';
import { DASHBOARD_STYLE } from './dashboard-style.ts';

/** The dashboard's icon: a small clock face, served at /favicon.svg and /favicon.ico. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#0969da"/><circle cx="16" cy="16" r="11" fill="#fff"/><path d="M16 8v8l5 3" stroke="#24292f" stroke-width="2.5" fill="none" stroke-linecap="round"/></svg>`;

const htmlText = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The client the sign-in hint names: the bundled fixtures' development client. */
export interface DevClientHint {
  client_id: string;
  /** Its readable alias (`northwind-dev`), signed in with as the id. */
  alias?: string;
  client_secret: string;
}

/**
 * /dashboard: the clock, the calendar, claims and their timelines, name verifications (ask one, see
 * the answers asked and received, each labelled with its side), accounts, deliveries, reports,
 * requests (their wall time and scheme time).
 * With the bundled fixtures loaded, the sign-in names their development client (its credentials
 * are development ones, printed by `npm start` too); a clients file of the user's is never named.
 */
export function dashboardPage(hint: DevClientHint | undefined): string {
  const id = hint ? htmlText(hint.alias ?? hint.client_id) : '';
  const devHint = hint
    ? `<p class="hint" id="dev-hint">The bundled fixtures are loaded: their development client is
      <code>${id}</code> with secret <code>${htmlText(hint.client_secret)}</code>.
      <button type="button" id="use-dev" data-id="${id}" data-secret="${htmlText(hint.client_secret)}">Use it</button></p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>scheme-sim dashboard</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <style>${DASHBOARD_STYLE}</style>
</head>
<body>
  <header><h1>scheme-sim</h1><span class="now" id="header-now"></span></header>
  <main>
  <div id="message"></div>
  <form id="signin" class="card">
    <h2>Sign in</h2>
    <p>Sign in with a client of the simulator (the token stays in this page).</p>
    ${devHint}
    <label>client id <input id="client-id" autocomplete="username"></label>
    <label>client secret <input id="client-secret" type="password" autocomplete="current-password"></label>
    <button type="submit" id="sign-in" class="primary">Sign in</button>
  </form>
  <div id="panels" hidden>
    <section class="card">
      <h2>Scheme clock</h2>
      <p id="clock-now"></p>
      <div class="controls">
        <label>advance <input id="advance-days" type="number" min="0" value="1" size="3" style="width:4.5rem"> working days</label>
        <button id="advance" class="primary">Advance</button> <button id="freeze">Freeze</button>
        <button id="resume">Resume</button> <button id="refresh">Refresh</button>
      </div>
      <h3>Next 30 working days</h3>
      <div id="calendar"></div>
    </section>
    <section class="card"><h2>Claims</h2><div id="claims"></div></section>
    <section class="card">
      <h2>Name verifications</h2>
      <div class="controls">
        <label>sort code <input id="nv-sort-code" size="6"></label>
        <label>account <input id="nv-account" size="8"></label>
        <label>name <input id="nv-name" size="18"></label>
        <label><input id="nv-business" type="checkbox"> business</label>
        <button id="nv-ask" class="primary">Ask</button>
      </div>
      <p class="muted">Newest first. <strong>asked</strong>: the requester's side, with the payee bank's answer
        (its submission); <strong>received</strong>: the payee bank's side, with who asked and what was answered
        (its admission). When both sides of one exchange are this organisation's, each links to the other.</p>
      <div id="name-verifications"></div>
    </section>
    <section class="card">
      <h2>Notifications</h2>
      <h3>Subscriptions</h3><div id="subscriptions"></div>
      <h3>Pending deliveries</h3><div id="pending"></div>
      <h3>Delivery attempts, newest first</h3><div id="deliveries"></div>
    </section>
    <section class="card">
      <h2>Reports, newest first</h2>
      <div id="reports"></div>
      <div class="pager"><button id="reports-newer" disabled>Newer</button><button id="reports-older" disabled>Older</button><span id="reports-page"></span></div>
    </section>
    <section class="card wide">
      <h2>Accounts, newest first</h2>
      <div id="accounts"></div>
      <div class="pager"><button id="accounts-newer" disabled>Newer</button><button id="accounts-older" disabled>Older</button><span id="accounts-page"></span></div>
    </section>
    <section class="card wide">
      <h2>Requests</h2>
      <p class="muted">The request journal, newest first, without the dashboard's and the CLI's own reads. Each
        request's wall time (the machine's clock) and scheme time (the scheme clock's reading) when it arrived.</p>
      <div class="controls">
        <label>status <input id="rq-status" placeholder="4xx" size="4"></label>
        <label>method <input id="rq-method" placeholder="POST" size="6"></label>
        <label>path <input id="rq-path" placeholder="/v1/transaction" size="16"></label>
        <button id="rq-apply">Filter</button>
      </div>
      <div id="requests" class="scroll"></div>
    </section>
  </div>
  </main>
  <script>${DASHBOARD_SCRIPT}</script>
</body>
</html>`;
}
