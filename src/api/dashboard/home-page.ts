// GET / for a browser: where the simulator's pages are. Only a client that prefers HTML gets it;
// any other (curl's */*, application/json, none) gets the 404 a path no route serves gets, so the
// fake account API's clients, which assert its PAGE_NOT_FOUND at GET / (wire-rules.ts), see no change.
import type { Context } from 'hono';
import { negotiate } from '../wire/negotiate.ts';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>scheme-sim</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; padding: 0 1rem; color: #24292f; }
    a { color: #0969da; } li { margin: .4rem 0; } code { font-size: .9em; }
  </style>
</head>
<body>
  <h1>scheme-sim</h1>
  <p>A local double of Form3's payments API. Its pages:</p>
  <ul>
    <li><a href="/dashboard">/dashboard</a>: the scheme clock, working days, claims, name verifications, accounts, deliveries, reports and requests</li>
    <li><a href="/docs">/docs</a>: the API reference (try each call)</li>
    <li><a href="/v1/openapi.json">/v1/openapi.json</a>: the OpenAPI 3.1 document</li>
    <li><a href="/health">/health</a>: the simulator's state, no token needed</li>
  </ul>
</body>
</html>`;

/** GET /: the page of links to a client that prefers HTML, else `otherwise` (the not-found answer). */
export function homePage(otherwise: (c: Context) => Response) {
  return (c: Context): Response =>
    negotiate(c.req.header('accept'), ['application/json', 'text/html']) === 'text/html' ? c.html(PAGE) : otherwise(c);
}
