import type { EngineError } from '@teltlk/im-sdk';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import './connection.css';

/** The banner's content, from the connection's state and the engine's errors. */
export function ConnectionNotice({
  inline,
  offline,
  errors,
  timedOut = false,
  onReconnect,
}: {
  inline: boolean;
  offline: boolean;
  errors: readonly EngineError[];
  /** Offline for a while: the whole screen is a button that tries again. */
  timedOut?: boolean;
  onReconnect?: () => void;
}) {
  const { t } = useTranslation();
  if (offline && timedOut && onReconnect) {
    return (
      <div role="status">
        <button type="button" className="tt-timeout-screen" onClick={onReconnect}>
          <ExclamationCircleOutline aria-hidden />
          <span>{t('engine.timedOut')}</span>
        </button>
      </div>
    );
  }
  // Offline says it all: nothing can be updated until the network is back.
  const error = offline ? undefined : errors[0];
  return (
    <div role="status" className={inline ? undefined : 'tt-connection-float'}>
      {offline ? (
        <p className="tt-connection">
          <ExclamationCircleOutline aria-hidden />
          {t('error.NETWORK_ERROR')}
        </p>
      ) : error ? (
        <p className="tt-connection">
          <ExclamationCircleOutline aria-hidden />
          <span>{t(error.kind === 'sync' ? 'engine.syncFailed' : 'engine.storeFailed')}</span>
          <button type="button" className="tt-connection-retry" onClick={() => error.retry()}>
            {t('common.retry')}
          </button>
        </p>
      ) : null}
    </div>
  );
}
