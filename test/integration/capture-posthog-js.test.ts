/**
 * posthog-js, unchanged, in headless Chromium (Debian's `chromium` package, driven by playwright-core): a page
 * with PostHog's snippet and only `api_host` pointed at Hedgerow captures a pageview and a custom event, which
 * land in the database.
 *
 * The snippet loads the SDK from `{api_host}/static/array.js`, PostHog's CDN; here the browser is handed the
 * npm package's own file for those addresses. Everything else posthog-js asks for (its remote configuration,
 * /flags/, the events) goes to Hedgerow. posthog-js drops events from browsers that look automated, so the
 * browser is started without the automation flag and with a user agent that does not say "Headless".
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * What the test uses of playwright-core, typed here: its own typings need the DOM library, which this project
 * does not load (the functions passed to `evaluate` run in the browser).
 */
interface Route {
  request(): { url(): string };
  fulfill(answer: { path?: string; status?: number; contentType?: string }): Promise<void>;
}
interface Page {
  evaluate<T>(fn: () => T): Promise<T>;
  waitForFunction(fn: () => boolean): Promise<unknown>;
  on(event: 'response', listener: (response: { url(): string; status(): number }) => void): void;
  route(pattern: string, handler: (route: Route) => Promise<void>): Promise<void>;
  goto(url: string): Promise<unknown>;
  click(selector: string): Promise<void>;
  close(): Promise<void>;
}
interface BrowserContext {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Browser {
  newPage(): Promise<Page>;
  newContext(options: { userAgent: string }): Promise<BrowserContext>;
  close(): Promise<void>;
}
interface Chromium {
  launch(options: { executablePath: string; args: string[] }): Promise<Browser>;
}
const CHROMIUM = '/usr/bin/chromium';
const POSTHOG_JS_DIST = fileURLToPath(new URL('../../node_modules/posthog-js/dist/', import.meta.url));

/** PostHog's HTML snippet, as its documentation gives it. */
const SNIPPET = `!function(t,e){var o,n,p,r;e.__SV||(window.posthog&&window.posthog.__loaded)||(window.posthog=e,e._i=[],e.init=function(i,s,a){function g(t,e){var o=e.split(".");2==o.length&&(t=t[o[0]],e=o[1]),t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}}(p=t.createElement("script")).type="text/javascript",p.crossOrigin="anonymous",p.async=!0,p.src=s.api_host.replace(".i.posthog.com","-assets.i.posthog.com")+"/static/array.js",(r=t.getElementsByTagName("script")[0]).parentNode.insertBefore(p,r);var u=e;for(void 0!==a?u=e[a]=[]:a="posthog",u.people=u.people||[],u.toString=function(t){var e="posthog";return"posthog"!==a&&(e+="."+a),t||(e+=" (stub)"),e},u.people.toString=function(){return u.toString(1)+".people (stub)"},o="init capture register register_once register_for_session unregister unregister_for_session getFeatureFlag getFeatureFlagPayload isFeatureEnabled reloadFeatureFlags updateEarlyAccessFeatureEnrollment getEarlyAccessFeatures on onFeatureFlags onSurveysLoaded onSessionId getSurveys getActiveMatchingSurveys renderSurvey canRenderSurvey canRenderSurveyAsync identify setPersonProperties group resetGroups setPersonPropertiesForFlags resetPersonPropertiesForFlags setGroupPropertiesForFlags resetGroupPropertiesForFlags reset get_distinct_id getGroups get_session_id get_session_replay_url alias set_config startSessionRecording stopSessionRecording sessionRecordingStarted captureException loadToolbar get_property getSessionProperty createPersonProfile opt_in_capturing opt_out_capturing has_opted_in_capturing has_opted_out_capturing clear_opt_in_out_capturing debug getPageViewId captureTraceFeedback captureTraceMetric".split(" "),n=0;n<o.length;n++)g(u,o[n]);e._i.push([i,s,a])},e.__SV=1)}(document,window.posthog||[]);`;

function page(token: string, apiHost: string): string {
  return `<!doctype html>
<html>
  <head>
    <title>Shop</title>
    <script>
      ${SNIPPET}
      posthog.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(apiHost)}, person_profiles: 'identified_only' });
    </script>
  </head>
  <body><button id="buy" onclick="posthog.capture('button clicked', { color: 'red' })">Buy</button></body>
</html>`;
}

describe('posthog-js in headless Chromium against Hedgerow', function () {
  this.timeout(90_000);
  let server: TestServer;
  let site: Server;
  let siteUrl: string;
  let browser: Browser;
  let account: Account;

  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install --no-install-recommends chromium)`);
    server = await startTestServer();
    account = await newAccount(testDb());
    const html = page(account.environment.api_token, server.directUrl);
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const address = site.address();
    siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/shop`;
    const packageName = 'playwright-core';
    const { chromium } = (await import(packageName)) as { chromium: Chromium };
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-blink-features=AutomationControlled',
      ],
    });
  });

  after(async () => {
    await browser?.close();
    // (site is unset when the set-up failed early: waiting for its close would hang the hook.)
    if (site) await new Promise((resolve) => site.close(resolve));
    await server?.close();
  });

  it('captures a pageview and a custom event, with only api_host set', async () => {
    const probe = await browser.newPage();
    // (Functions passed to evaluate run in the browser: they name its globals through globalThis.)
    const userAgent = (await probe.evaluate(() => (globalThis as unknown as { navigator: { userAgent: string } }).navigator.userAgent)).replace(
      'HeadlessChrome',
      'Chrome',
    );
    await probe.close();
    const context = await browser.newContext({ userAgent });
    const tab = await context.newPage();
    const answers: Array<{ path: string; status: number }> = [];
    tab.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === server.directUrl) answers.push({ path: url.pathname, status: response.status() });
    });
    await tab.route(`${server.directUrl}/static/**`, async (route) => {
      const file = new URL(route.request().url()).pathname.split('/').pop()!;
      const path = `${POSTHOG_JS_DIST}${file}`;
      await (existsSync(path) ? route.fulfill({ path, contentType: 'application/javascript' }) : route.fulfill({ status: 404 }));
    });

    await tab.goto(siteUrl);
    await tab.waitForFunction(() => (globalThis as unknown as { posthog?: { __loaded?: boolean } }).posthog?.__loaded === true);
    await tab.click('#buy');

    const teamId = account.environment.id;
    let rows: Array<{ event: string; distinct_id: string; properties: Record<string, any>; person_id: string | null }> = [];
    for (let attempt = 0; attempt < 100 && rows.length < 2; attempt += 1) {
      rows = await testDb()('events').where({ team_id: teamId }).orderBy('timestamp').select('event', 'distinct_id', 'properties', 'person_id');
      if (rows.length < 2) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await context.close();

    expect(rows.map((row) => row.event)).to.deep.equal(['$pageview', 'button clicked']);
    const [pageview, click] = rows;
    expect(pageview!.properties).to.deep.include({ $current_url: siteUrl, $lib: 'web', token: account.environment.api_token });
    expect(click!.properties).to.deep.include({ color: 'red', $current_url: siteUrl });
    expect(click!.distinct_id).to.equal(pageview!.distinct_id);
    // person_profiles: 'identified_only' makes an anonymous visitor's events personless.
    expect([pageview!.person_id, click!.person_id]).to.deep.equal([null, null]);

    const paths = answers.map((answer) => answer.path);
    expect(paths).to.include(`/array/${account.environment.api_token}/config.js`);
    expect(paths.some((path) => path === '/e/' || path === '/i/v0/e/')).to.equal(true);
    for (const answer of answers.filter((a) => !a.path.startsWith('/static/'))) expect(answer, answer.path).to.deep.include({ status: 200 });
  });
});
