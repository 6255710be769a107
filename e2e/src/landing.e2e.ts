import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import { operator, watchConsole } from './harness.js';
import { browserSuite } from './suite.js';

/**
 * The landing site at /home: plain prerendered pages in three languages that load none of
 * the app's scripts, read well by assistive technology, and a partnership form that works
 * with JavaScript off.
 */

const suite = browserSuite();

const PAGES: [string, string, RegExp][] = [
  ['/home/', 'zh-CN', /与世界各地的先锋畅聊/],
  ['/home/en/', 'en', /Chat with pioneers everywhere/],
  ['/home/zh-tw/', 'zh-TW', /與世界各地的先鋒暢聊/],
];

describe('landing site', () => {
  it.each(PAGES)(
    'serves %s in its language, without the app, accessibly',
    async (path, lang, heading) => {
      const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 } });
      try {
        const page = await context.newPage();
        const errors = watchConsole(page);
        const scripts: string[] = [];
        page.on('request', (request) => {
          if (request.resourceType() === 'script') scripts.push(request.url());
        });
        await page.goto(`${suite.server.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
          `${suite.server.baseUrl}${path}`,
        );
        await page.getByText('180+').waitFor();
        expect(scripts).toEqual([]);
        await expectAccessible(page, `landing ${path}`);
        for (const sub of ['enlist/', 'cooperate/', 'privacy/']) {
          await page.goto(`${suite.server.baseUrl}${path}${sub}`);
          await page.getByRole('heading', { level: 1 }).waitFor();
          await expectAccessible(page, `landing ${path}${sub}`);
        }
        expect(scripts).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('takes a partnership request with JavaScript off, and says when a download is missing', async () => {
    const context = await suite.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${suite.server.baseUrl}/home/en/`);
      await page.getByRole('link', { name: 'Partner with us' }).click();
      await page.getByRole('textbox', { name: 'Your name' }).fill('Mia');
      await page.getByRole('textbox', { name: 'Email' }).fill('mia@example.com');
      await page.getByRole('combobox', { name: 'Kind of partnership' }).selectOption('community');
      await page.getByRole('textbox', { name: 'Your proposal' }).fill('A meetup for pioneers.');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('heading', { level: 1, name: 'Thank you' }).waitFor();
      expect(await operator(suite.server, 'cooperation:list')).toContain('community\tMia');

      await page.goto(`${suite.server.baseUrl}/home/en/`);
      await page.getByRole('link', { name: 'Android' }).click();
      await page.getByText('Download link acquisition failed').waitFor();
    } finally {
      await context.close();
    }
  });
});
