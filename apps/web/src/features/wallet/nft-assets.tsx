import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { singleConversationId, type NftItemView } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useNfts, walletKeys } from '../../api/use-wallet';
import { useSelfId } from '../../app/engine';
import { Button } from '../../ui/button';
import { errorMessage, isHandledError, type Message } from '../../ui/error-message';
import { FriendPicker } from '../../ui/friend-picker';
import { PasscodePad } from '../../ui/passcode-pad';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { Sheet } from '../../ui/sheet';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { useMessageText } from '../../ui/use-message';

/** The wallet's NFT assets: a grid of what the person holds; one opens in a sheet (`?nft=`). */
export function NftAssets() {
  const { t } = usePageTexts();
  const nfts = useNfts();
  const [params, setParams] = useSearchParams();
  const openId = params.get('nft');
  const show = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('nft', id);
        else next.delete('nft');
        return next;
      },
      { replace: id === null },
    );
  return (
    <section className="tt-section" aria-labelledby="wallet-nfts">
      <h2 id="wallet-nfts" className="tt-section-title">
        {t('wallet.nfts')}
      </h2>
      {nfts.isPending ? (
        <PageSpinner />
      ) : nfts.isError ? (
        <QueryError error={nfts.error} onRetry={() => void nfts.refetch()} />
      ) : nfts.data.items.length === 0 ? (
        <p className="tt-nft-empty">{t('wallet.nftsEmpty')}</p>
      ) : (
        <ul className="tt-nft-grid">
          {nfts.data.items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="tt-nft-card"
                data-testid="nft-card"
                onClick={() => show(item.id)}
              >
                <img src={item.imageUrl} alt="" width={140} height={140} loading="lazy" />
                <strong dir="auto">{item.name}</strong>
                <small dir="auto">
                  {t('wallet.nftSerial', { collection: item.collection.name, serial: item.serial })}
                </small>
              </button>
            </li>
          ))}
        </ul>
      )}
      {openId ? (
        <NftSheet
          itemId={openId}
          initial={nfts.data?.items.find((item) => item.id === openId)}
          onClose={() => show(null)}
        />
      ) : null}
    </section>
  );
}

type Step = { kind: 'detail' } | { kind: 'friend' } | { kind: 'password'; friend: Friend };
interface Friend {
  id: string;
  name: string;
}

/** One NFT: its picture and story, and giving it to a friend with the payment password. */
function NftSheet({
  itemId,
  initial,
  onClose,
}: {
  itemId: string;
  initial: NftItemView | undefined;
  onClose: () => void;
}) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const locale = useUiLocale();
  const selfId = useSelfId();
  const queryClient = useQueryClient();
  const item = useQuery({
    queryKey: walletKeys.nft(itemId),
    queryFn: () => api.call(routes.nfts.item, { params: { id: itemId } }),
    initialData: initial,
    retry: (count, failure) => !(failure instanceof ApiError && failure.status < 500) && count < 2,
  });
  const [step, setStep] = useState<Step>({ kind: 'detail' });
  const [passcode, setPasscode] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [clientMsgId] = useState(() => `nft-${crypto.randomUUID()}`);
  const give = useMutation({
    mutationFn: ({ friend, password }: { friend: Friend; password: string }) =>
      api.call(routes.nfts.send, {
        params: { id: itemId },
        body: {
          conversationId: singleConversationId(selfId ?? '', friend.id),
          clientMsgId,
          password,
        },
      }),
    onSuccess: (_message, { friend }) => {
      void queryClient.invalidateQueries({ queryKey: walletKeys.nfts() });
      showToast(t('wallet.nftGiven', { name: friend.name }), { icon: 'success' });
      onClose();
    },
    onError: (failure) => {
      setPasscode('');
      // Given up at the step-up: the password is typed again when they are ready.
      if (isHandledError(failure)) return;
      setError(errorMessage(failure, 'modify'));
      if (!(failure instanceof ApiError && failure.code === 'PAYMENT_PASSWORD_INCORRECT')) {
        setStep({ kind: 'detail' });
      }
    },
  });
  const view = item.data;
  return (
    <Sheet
      visible
      title={step.kind === 'friend' ? t('wallet.nftPickFriend') : (view?.name ?? t('wallet.nfts'))}
      onClose={onClose}
      className="tt-wallet-sheet"
    >
      {!view ? (
        item.isError ? (
          <QueryError error={item.error} onRetry={() => void item.refetch()} />
        ) : (
          <PageSpinner />
        )
      ) : step.kind === 'detail' ? (
        <div className="tt-nft-detail" data-testid="nft-detail">
          <img src={view.imageUrl} alt={view.name} width={280} height={280} />
          <h3 dir="auto">{view.name}</h3>
          <p className="tt-hint" dir="auto">
            {t('wallet.nftSerial', { collection: view.collection.name, serial: view.serial })}
            {' · '}
            {t('wallet.nftMinted', {
              date: new Date(view.mintedAt).toLocaleDateString(locale.replace('_', '-')),
            })}
          </p>
          {view.description ? <p dir="auto">{view.description}</p> : null}
          {view.collection.description ? (
            <p className="tt-hint" dir="auto">
              {t('wallet.nftCollection')}: {view.collection.description}
            </p>
          ) : null}
          {error ? (
            <p className="tt-alert" role="alert">
              {text(error)}
            </p>
          ) : null}
          <Button
            block
            onClick={() => {
              // Friends made on another device meanwhile belong in the list.
              void queryClient.invalidateQueries({ queryKey: queryKeys.friends() });
              setStep({ kind: 'friend' });
            }}
          >
            {t('wallet.nftSend')}
          </Button>
        </div>
      ) : step.kind === 'friend' ? (
        <FriendPicker
          empty={t('wallet.nftNoFriends')}
          onPick={(friend, name) => {
            setError(null);
            setStep({ kind: 'password', friend: { id: friend.user.id, name } });
          }}
        />
      ) : (
        <PasscodePad
          prompt={t('wallet.nftGiveTo', { name: view.name, friend: step.friend.name })}
          value={passcode}
          onChange={setPasscode}
          onComplete={(password) => give.mutate({ friend: step.friend, password })}
          error={text(error)}
          disabled={give.isPending}
        />
      )}
    </Sheet>
  );
}
