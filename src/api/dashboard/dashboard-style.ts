// The dashboard's stylesheet: cards in a grid (two or three columns at 1280 px, one on a phone),
// tables that scroll sideways inside their card rather than widen the page, timestamps on one line.
export const DASHBOARD_STYLE = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --card: #fff; --bg: #f6f8fa; --accent: #0969da;
  --ok: #1a7f37; --ok-bg: #dafbe1; --bad: #b42318; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem 1rem; padding: .75rem 1.25rem;
  background: #24292f; color: #fff; }
header h1 { font-size: 1.15rem; margin: 0; }
header .now { font-variant-numeric: tabular-nums; color: #d0d7de; }
main { padding: 1rem 1.25rem 2rem; max-width: 1400px; margin: 0 auto; }
h2 { font-size: 1rem; margin: 0 0 .5rem; }
h3 { font-size: .9rem; margin: .75rem 0 .35rem; color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .85rem 1rem; min-width: 0; }
#panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 26rem), 1fr)); gap: 1rem; }
#panels > .wide { grid-column: 1 / -1; }
#signin { max-width: 30rem; margin: 2rem auto; }
#signin label { display: block; margin: .5rem 0; }
#signin input { display: block; width: 100%; }
.hint { background: #ddf4ff; border: 1px solid #b6e3ff; border-radius: 6px; padding: .5rem .75rem; }
.hint code { font-size: .9em; }
input, button { font: inherit; padding: .3rem .55rem; border: 1px solid var(--line); border-radius: 6px; }
button { background: #f6f8fa; cursor: pointer; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
button:hover { border-color: var(--muted); }
button.small { padding: .1rem .4rem; font-size: .85em; }
td.formats button { margin: 0 .15rem .15rem 0; }
.controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .4rem 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .25rem .5rem; text-align: left; vertical-align: top; border-bottom: 1px solid #eaeef2; }
th { font-weight: 600; color: var(--muted); white-space: nowrap; }
time, .ts, .id { white-space: nowrap; font-variant-numeric: tabular-nums; }
.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85em; }
ul, ol { padding-left: 1.2rem; margin: .25rem 0; }
.claims { list-style: none; padding: 0; }
.claim { border-top: 1px solid #eaeef2; padding: .4rem 0; }
.status { font-weight: 600; }
.name-verifications li { margin: .2rem 0; }
.side { font-weight: 600; text-transform: uppercase; font-size: .75em; padding: 0 .3rem; border-radius: 4px; }
.side.asked { background: #ddf4ff; color: var(--accent); }
.side.received { background: var(--ok-bg); color: var(--ok); }
.name-verification:target { background: #fff8c5; }
.error { color: var(--bad); }
.timeline { columns: 1; }
.timeline li.done { color: var(--ok); }
.timeline li.ahead { color: var(--muted); }
.contra { background: var(--ok-bg); padding: 0 .3rem; border-radius: 4px; overflow-wrap: anywhere; }
.days { display: grid; grid-template-columns: repeat(auto-fill, minmax(6.5rem, 1fr)); gap: 0 .5rem; padding-left: 1.6rem; }
.pager { display: flex; gap: .4rem; align-items: center; margin-top: .4rem; color: var(--muted); }
.muted { color: var(--muted); }
[hidden] { display: none !important; }
@media (max-width: 480px) {
  main { padding: .75rem .5rem 1.5rem; }
  .card { padding: .7rem .7rem; }
  header { padding: .6rem .75rem; }
}
`;
