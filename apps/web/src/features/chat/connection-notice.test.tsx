import type { EngineError } from '@teltlk/im-sdk';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { en_US } from '../../i18n/en_US';
import { ConnectionNotice } from './connection-notice';

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
