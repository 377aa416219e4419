/**
 * The API reference page in headless Chromium (Debian's `chromium`, driven by playwright-core): `/docs/` renders
 * every operation of the spec, and loads everything it needs from the server alone. Every request to another
 * address is refused and recorded, and the test fails if there was any.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { specOperations } from '../helpers/spec-sync.js';

/** What the test uses of playwright-core (its own typings need the DOM library, which this project does not load). */
interface Route {
  request(): { url(): string };
  continue(): Promise<void>;
  abort(): Promise<void>;
}
interface Page {
  route(pattern: string, handler: (route: Route) => Promise<void>): Promise<void>;
  goto(url: string): Promise<unknown>;
  waitForSelector(selector: string, options: { timeout: number }): Promise<unknown>;
  evaluate<T, A>(fn: (arg: A) => T, arg: A): Promise<T>;
  close(): Promise<void>;
}
interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Chromium {
  launch(options: { executablePath: string; args: string[] }): Promise<Browser>;
}
const CHROMIUM = '/usr/bin/chromium';

/** Every operation with the text Redoc shows for it: its summary in the section Redoc names after its operationId. */
const OPERATIONS = specOperations(['get', 'post', 'put', 'patch', 'delete', 'options']).map((operation) => ({
  operationId: operation.operationId,
  summary: (operation as { summary?: string }).summary ?? '',
}));

describe('the API reference page in headless Chromium', function () {
  this.timeout(90_000);
  let server: TestServer;
  let browser: Browser;

  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install --no-install-recommends chromium)`);
    server = await startTestServer();
    const packageName = 'playwright-core';
    const { chromium } = (await import(packageName)) as { chromium: Chromium };
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders every operation of the spec, loading nothing from anywhere but the server', async () => {
    const tab = await browser.newPage();
    const elsewhere: string[] = [];
    await tab.route('**/*', async (route) => {
      const url = route.request().url();
      if (new URL(url).origin === server.directUrl) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });

    await tab.goto(`${server.directUrl}/docs/`);
    await tab.waitForSelector(`[id="operation/${OPERATIONS.at(-1)!.operationId}"]`, { timeout: 60_000 });
    // (The function runs in the browser: it names the page's document through globalThis.)
    const shown = await tab.evaluate(
      (ids: string[]) => {
        const page = (globalThis as unknown as { document: { getElementById(id: string): { textContent: string | null } | null } }).document;
        return ids.map((id) => page.getElementById(`operation/${id}`)?.textContent ?? null);
      },
      OPERATIONS.map((operation) => operation.operationId),
    );
    await tab.close();

    expect(OPERATIONS.length).to.be.greaterThan(50);
    const missing = OPERATIONS.filter((operation, index) => !shown[index]?.includes(operation.summary)).map((operation) => operation.operationId);
    expect(missing, 'operations not shown with their summary').to.deep.equal([]);
    expect(elsewhere, 'requests to other addresses').to.deep.equal([]);
  });
});
