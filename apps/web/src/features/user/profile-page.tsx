import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { teltlkIdSchema, type Me } from '@teltlk/protocol';
import { useId } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { fileForm } from '../../api/file-form';
import { useMe } from '../../api/queries';
import { queryKeys } from '../../api/query-keys';
import { paths } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { ImageFileInput } from '../../ui/image-file-input';
import { copyText } from '../../ui/clipboard';
import { countryName } from '../../ui/countries';
import { errorMessage, isHandledError, ruleMessage } from '../../ui/error-message';
import { languageLabel } from '../../ui/languages';
import { ButtonRow, InfoRow, LinkRow } from '../../ui/list-row';
import { showModal } from '../../ui/modal';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { formatDate } from '../../ui/time';
import { hideLoading, showLoading, showToast } from '../../ui/toast';
import { messageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { toastModifyFailure } from '../../ui/failure-toast';
import './user.css';

function ProfileRows({ me }: { me: Me }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const queryClient = useQueryClient();
  const avatarInputId = useId();

  const uploadAvatar = useMutation({
    mutationFn: (file: File) => api.call(routes.users.setAvatar, { body: fileForm(file) }),
    onMutate: () => showLoading(t('profile.uploading')),
    onSuccess: (updated) => {
      hideLoading();
      queryClient.setQueryData(queryKeys.me(), updated);
      showToast(t('profile.avatarUpdated'), { icon: 'success' });
    },
    onError: (failure) => {
      hideLoading();
      toastModifyFailure(failure);
    },
  });

  const changeTeltlkId = useMutation({
    mutationFn: (teltlkId: string) => api.call(routes.users.changeTeltlkId, { body: { teltlkId } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.me(), updated);
      showToast(t('common.saved'), { icon: 'success' });
    },
    onError: (failure) => {
      if (isHandledError(failure)) return;
      const issue = failure instanceof ApiError ? failure.issues?.[0] : undefined;
      showToast(messageText(issue ? ruleMessage(issue.rule) : errorMessage(failure, 'modify')));
    },
  });

  const editTeltlkId = async () => {
    if (me.teltlkIdChangeableAt !== null && me.teltlkIdChangeableAt > Date.now()) {
      showToast(
        `${messageText({ key: 'error.TELTLK_ID_MONTHLY' })}. ${t('profile.teltlkIdNext', {
          date: formatDate(me.teltlkIdChangeableAt, locale),
        })}`,
        { duration: 3000 },
      );
      return;
    }
    const result = await showModal({
      title: t('profile.teltlkIdTitle'),
      content: t('rule.teltlkId'),
      editable: true,
      inputLabel: t('profile.teltlkIdPrompt'),
      defaultValue: me.teltlkId,
      maxLength: 16,
    });
    const value = result.content.trim();
    if (!result.confirm || value === me.teltlkId) return;
    const invalid = checkField(teltlkIdSchema, value);
    if (invalid) {
      showToast(messageText(invalid), { duration: 3000 });
      return;
    }
    changeTeltlkId.mutate(value);
  };

  const copyInviteCode = async () => {
    const copied = await copyText(me.inviteCode);
    showToast(copied ? t('profile.copied') : t('profile.copyFailed'), {
      icon: copied ? 'success' : 'fail',
    });
  };

  const notSet = t('common.notSet');
  return (
    <>
      <ul className="tt-list tt-section">
        <li>
          <label className="tt-row" htmlFor={avatarInputId}>
            <span className="tt-row-label">{t('profile.avatar')}</span>
            <Avatar id={me.id} name={me.nickname} url={me.avatarUrl} size={48} />
            <ImageFileInput
              id={avatarInputId}
              label={t('profile.changeAvatar')}
              disabled={uploadAvatar.isPending}
              onPick={(file) => uploadAvatar.mutate(file)}
            />
          </label>
        </li>
        <li>
          <LinkRow to={paths.nickname} label={t('profile.nickname')} value={me.nickname} />
        </li>
        <li>
          <ButtonRow
            label={t('profile.teltlkId')}
            value={me.teltlkId}
            onClick={() => void editTeltlkId()}
          />
        </li>
        <li>
          <LinkRow
            to={paths.chooseCountry}
            label={t('profile.country')}
            value={countryName(me.country, locale)}
          />
        </li>
        <li>
          <LinkRow
            to={paths.chooseTongue}
            label={t('profile.motherTongue')}
            value={languageLabel(me.motherTongue, locale)}
          />
        </li>
      </ul>
      <ul className="tt-list tt-section">
        <li>
          <InfoRow label={t('profile.phone')} value={me.phone ?? notSet} />
        </li>
        <li>
          <InfoRow label={t('profile.email')} value={me.email ?? notSet} />
        </li>
        <li>
          <InfoRow label={t('profile.pi')} value={me.piUsername ?? notSet} />
        </li>
        <li>
          <InfoRow label={t('profile.inviteCode')} value={me.inviteCode}>
            <button type="button" className="tt-link-button" onClick={() => void copyInviteCode()}>
              {t('profile.copyInviteCode')}
            </button>
          </InfoRow>
        </li>
      </ul>
    </>
  );
}

/** `/pages/user/means`: the profile. */
export function ProfilePage() {
  const { t } = usePageTexts();
  const me = useMe();
  return (
    <Page title={t('profile.title')} flush>
      {me.data ? (
        <ProfileRows me={me.data} />
      ) : me.error ? (
        <QueryError error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
