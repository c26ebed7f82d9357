// The console's files over HTTPS: served without credentials, with their
// content types, revalidation and a strict CSP; nothing else under /console/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';
import { buildConsole } from '../console/browser.js';

describe('web console files', () => {
  let svc: TestService;
  before(async () => {
    buildConsole();
    svc = await startTestService();
  });
  after(() => svc.close());

  it('serves the page, its script and its styles without credentials, with a strict CSP', async () => {
    const page = await svc.get('/console/', { auth: 'none' });
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.text, /<script type="module" src="main.js"><\/script>/);
    const csp = page.headers['content-security-policy']!;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/, 'no inline script, no other origin');
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.ok(page.headers['strict-transport-security']);

    const script = await svc.get('/console/main.js', { auth: 'none' });
    assert.equal(script.status, 200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.match(script.text, /SessionService|openEventStream/);
    assert.doesNotMatch(script.text, /innerHTML/, 'the console never parses data as markup');
    const css = await svc.get('/console/app.css', { auth: 'none' });
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');

    const again = await svc.get('/console/main.js', { auth: 'none', headers: { 'if-none-match': script.headers.etag! } });
    assert.equal(again.status, 304, 'an unchanged file is revalidated, not sent again');
  });

  it('serves the charting library from its package, under the same policy', async () => {
    const page = await svc.get('/console/', { auth: 'none' });
    assert.match(page.text, /<link rel="stylesheet" href="uplot.css" \/>/);
    for (const [name, file, type] of [
      ['uplot.js', 'uPlot.esm.js', 'text/javascript; charset=utf-8'],
      ['uplot.css', 'uPlot.min.css', 'text/css; charset=utf-8'],
    ] as const) {
      const r = await svc.get(`/console/${name}`, { auth: 'none' });
      assert.equal(r.status, 200, name);
      assert.equal(r.headers['content-type'], type);
      assert.equal(
        r.text,
        readFileSync(new URL(`../../node_modules/uplot/dist/${file}`, import.meta.url), 'utf8'),
        'the package’s own file',
      );
      assert.match(r.headers['content-security-policy']!, /default-src 'none'/);
    }
  });

  it('redirects /console to /console/ and answers only its own files', async () => {
    const bare = await svc.get('/console', { auth: 'none' });
    assert.equal(bare.status, 308);
    assert.equal(bare.headers.location, '/console/');
    for (const path of [
      '/console/nope.js',
      '/console/..%2Fpackage.json',
      '/console/main.d.ts',
      '/console/.tsbuildinfo',
      '/console/uplot.d.ts',
      '/console/uPlot.esm.js',
    ]) {
      const r = await svc.get(path, { auth: 'none' });
      assert.equal(r.status, 404, path);
      assert.match(r.body.error['@Message.ExtendedInfo'][0].MessageId, /^Base\.[0-9.]+ResourceMissingAtURI$/, path);
    }
    const post = await svc.req('POST', '/console/', { auth: 'none', body: {} });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
  });

  it('keeps the data behind a session: the API still answers 401 without one', async () => {
    assert.equal((await svc.get('/redfish/v1/Systems/1/', { auth: 'none' })).status, 401);
  });
});
