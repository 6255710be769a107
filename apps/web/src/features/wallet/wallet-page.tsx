import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { WalletResult } from '@teltlk/protocol';
import { useEffect } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { paths, withQuery } from '../../app/paths';
import { Button } from '../../ui/button';
import { toastModifyFailure } from '../../ui/failure-toast';
import { LinkRow } from '../../ui/list-row';
import { formatMoney } from '../../ui/money';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { useWallet, walletKeys } from '../../api/use-wallet';
import { NftAssets } from './nft-assets';
import './wallet.css';

/** `/pages/user/wallet`: all assets, and the payment password. */
export function WalletPage() {
  const { t } = usePageTexts();
  const wallet = useWallet();
  const navigate = useNavigate();
  const missing = wallet.data && !wallet.data.exists;
  useEffect(() => {
    if (missing) void navigate(paths.creatWallet, { replace: true });
  }, [missing, navigate]);
  return (
    <Page title={t('wallet.title')} flush>
      {wallet.data?.exists ? (
        <WalletContent wallet={wallet.data} />
      ) : wallet.error ? (
        <QueryError error={wallet.error} onRetry={() => void wallet.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}

function WalletContent({ wallet }: { wallet: WalletResult }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  return (
    <>
      <section className="tt-section" aria-labelledby="wallet-assets">
        <h2 id="wallet-assets" className="tt-section-title">
          {t('wallet.allAssets')}
        </h2>
        <ul className="tt-list">
          {wallet.balances.map((balance) => (
            <li key={balance.currency}>
              <Link className="tt-asset" to={paths.walletPi}>
                <span className="tt-asset-mark" aria-hidden>
                  π
                </span>
                <span className="tt-asset-name">{t('wallet.piTitle')}</span>
                <span className="tt-asset-amount">
                  <strong>
                    {formatMoney(balance.available + balance.held, balance.currency, locale)}
                  </strong>
                  {balance.held > 0 ? (
                    <small>
                      {t('wallet.held')} {formatMoney(balance.held, balance.currency, locale)}
                    </small>
                  ) : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <NftAssets />
      <section className="tt-section" aria-labelledby="wallet-password">
        <h2 id="wallet-password" className="tt-section-title">
          {t('wallet.paymentPassword')}
        </h2>
        <ul className="tt-list">
          {wallet.hasPassword ? (
            <>
              <li>
                <LinkRow
                  to={withQuery(paths.creatPassword, { mode: 'change' })}
                  label={t('wallet.changePassword')}
                />
              </li>
              <li>
                <LinkRow
                  to={withQuery(paths.creatPassword, { mode: 'forget' })}
                  label={t('wallet.forgotPassword')}
                />
              </li>
            </>
          ) : (
            <li>
              <LinkRow to={paths.creatPassword} label={t('wallet.setPassword')} />
            </li>
          )}
        </ul>
      </section>
    </>
  );
}

/** `/pages/user/creatWallet`: a wallet is made once, then its payment password is set. */
export function CreateWalletPage() {
  const { t } = usePageTexts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () => api.call(routes.wallet.create),
    onSuccess: (wallet) => {
      queryClient.setQueryData(walletKeys.wallet(), wallet);
      showToast(t('wallet.created'), { icon: 'success' });
      void navigate(wallet.hasPassword ? paths.wallet : paths.creatPassword, { replace: true });
    },
    onError: (failure) => toastModifyFailure(failure),
  });
  return (
    <Page title={t('wallet.createTitle')}>
      <div className="tt-wallet-intro">
        <span className="tt-asset-mark tt-asset-mark-large" aria-hidden>
          π
        </span>
        <p>{t('wallet.noWallet')}</p>
        <p className="tt-hint">{t('wallet.createIntro')}</p>
        <Button block busy={create.isPending} onClick={() => create.mutate()}>
          {t('wallet.create')}
        </Button>
      </div>
    </Page>
  );
}
