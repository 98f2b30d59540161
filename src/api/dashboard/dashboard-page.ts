import { DASHBOARD_SCRIPT } from './dashboard-script.ts';

/** /dashboard: the clock, the calendar, claims and their timelines, deliveries, reports, requests. */
export const DASHBOARD_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>scheme-sim dashboard</title>
  <style>
    body { font: 14px system-ui, sans-serif; margin: 1.5rem; color: #1b1f24; }
    h1 { font-size: 1.3rem; } h2 { font-size: 1.05rem; margin-top: 1.5rem; }
    section { border-top: 1px solid #d0d7de; }
    .error { color: #b42318; } .status { font-weight: 600; }
    .timeline li.done { color: #1a7f37; } .timeline li.ahead { color: #57606a; }
    .contra { background: #dafbe1; padding: 0 .3rem; }
    .days { columns: 5; } table { border-collapse: collapse; } td, th { padding: .15rem .5rem; text-align: left; }
    [hidden] { display: none !important; }
    #panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(28rem, 1fr)); gap: 0 2rem; }
  </style>
</head>
<body>
  <h1>scheme-sim</h1>
  <div id="message"></div>
  <form id="signin">
    <p>Sign in with a client of the simulator (the token stays in this page).</p>
    <label>client id <input id="client-id" autocomplete="username"></label>
    <label>client secret <input id="client-secret" type="password" autocomplete="current-password"></label>
    <button type="submit" id="sign-in">Sign in</button>
  </form>
  <div id="panels" hidden>
    <section>
      <h2>Scheme clock</h2>
      <p id="clock-now"></p>
      <label>advance <input id="advance-days" type="number" min="0" value="1" size="4"> working days</label>
      <button id="advance">Advance</button> <button id="freeze">Freeze</button> <button id="resume">Resume</button>
      <button id="refresh">Refresh</button>
      <h2>Next 30 working days</h2>
      <div id="calendar"></div>
    </section>
    <section><h2>Claims</h2><div id="claims"></div></section>
    <section>
      <h2>Subscriptions</h2><div id="subscriptions"></div>
      <h2>Pending deliveries</h2><div id="pending"></div>
      <h2>Delivery attempts</h2><div id="deliveries"></div>
    </section>
    <section><h2>Reports</h2><div id="reports"></div></section>
    <section>
      <h2>Requests</h2>
      <label>status <input id="rq-status" placeholder="4xx" size="4"></label>
      <label>method <input id="rq-method" placeholder="POST" size="6"></label>
      <label>path <input id="rq-path" placeholder="/v1/transaction" size="18"></label>
      <button id="rq-apply">Filter</button>
      <div id="requests"></div>
    </section>
  </div>
  <script>${DASHBOARD_SCRIPT}</script>
</body>
</html>`;
