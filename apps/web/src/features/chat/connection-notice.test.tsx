import type { EngineError } from '@teltlk/im-sdk';
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { en_US } from '../../i18n/en_US';
import { initEnglish } from '../../i18n/english-for-tests';
import { ConnectionNotice } from './connection-notice';

const i18n = i18next.createInstance();

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: i18n.t.bind(i18n), i18n }) }));
// The icon library resolves its own React outside the app's bundler.
vi.mock('antd-mobile-icons', () => ({ ExclamationCircleOutline: () => null }));

beforeAll(() => initEnglish(i18n));

const failure = (kind: EngineError['kind']): EngineError => ({
  kind,
  code: 'INTERNAL',
  retry: () => {},
});

const render = (offline: boolean, errors: readonly EngineError[]) =>
  renderToStaticMarkup(<ConnectionNotice inline offline={offline} errors={errors} />);

describe('the connection banner', () => {
  it('is empty while all is well', () => {
    expect(render(false, [])).toBe('<div role="status"></div>');
  });

  it('says the network is poor while offline, and nothing else', () => {
    const html = render(true, [failure('sync')]);
    expect(html).toContain(en_US.error.NETWORK_ERROR);
    expect(html).not.toContain(en_US.engine.syncFailed);
    expect(html).not.toContain('<button');
  });

  it('turns the screen into a button to try again once the connection timed out', () => {
    const html = renderToStaticMarkup(
      <ConnectionNotice inline offline errors={[]} timedOut onReconnect={() => {}} />,
    );
    expect(html).toContain(en_US.engine.timedOut);
    expect(html).toContain('class="tt-timeout-screen"');
    expect(html).not.toContain(en_US.error.NETWORK_ERROR);
  });

  it('shows a failed sync with a button to try again', () => {
    const html = render(false, [failure('sync')]);
    expect(html).toContain(en_US.engine.syncFailed);
    expect(html).toContain(
      `<button type="button" class="tt-connection-retry">${en_US.common.retry}</button>`,
    );
  });

  it('shows a failure to save on this device', () => {
    expect(render(false, [failure('store')])).toContain(en_US.engine.storeFailed);
  });
});
