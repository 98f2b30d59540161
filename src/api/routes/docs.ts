// A readable API reference on the running simulator itself: Swagger UI over the generated OpenAPI
// document, served from the package's own files so it works offline.
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.ts';
import { errorBody } from '../wire/errors.ts';

/** The reference page: Swagger UI over GET /v1/openapi.json, its files served locally. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>scheme-sim API reference</title>
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#ui', deepLinking: true, tryItOutEnabled: true });
  </script>
</body>
</html>`;

/** /docs (no token): the API reference page and the renderer's files. */
export function docsRoutes({ docsAssets }: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/', (c) => c.html(PAGE));
  r.get('/assets/:name', async (c) => {
    const asset = await docsAssets?.(c.req.param('name'));
    if (!asset) return c.json(errorBody(`no asset ${c.req.param('name')} in the reference page`), 404);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      'content-type': asset.type,
      'cache-control': 'public, max-age=3600',
    });
  });
  return r;
}
