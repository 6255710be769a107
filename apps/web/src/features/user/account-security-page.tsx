import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import { passwordSchema, type Me, type SessionInfo } from '@teltlk/protocol';
import { useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { handOverIncomplete, piAccessToken, usePiClient } from '../../api/pi';
import { useMe, useSessions } from '../../api/queries';
import { paths, withQuery } from '../../app/paths';
import { stepUpGate } from '../../api/step-up-gate';
import { addressTitleKey, currentAddress } from '../../ui/account-address';
import { InfoRow, LinkRow } from '../../ui/list-row';
import { PiOnlyNotice } from '../../ui/pi-only';
import { queryKeys } from '../../api/query-keys';
import { Button } from '../../ui/button';
import { toFormErrors, type FormErrors } from '../../ui/error-message';
import { confirmModal } from '../../ui/modal';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { PasswordField } from '../../ui/text-field';
import { formatDateTime, relativeTime } from '../../ui/time';
import { showToast } from '../../ui/toast';
import { useMessageText } from '../../ui/use-message';
import { checkPasswordPair, hasErrors } from '../../ui/validation';
import { useLogout } from '../../app/use-logout';
import { summariseUserAgent } from '../../ui/user-agent';
import { toastModifyFailure } from '../../ui/failure-toast';
import { useSecurityTexts } from '../../i18n/security';
import './user.css';
import '../../ui/tag.css';

type PasswordField = 'currentPassword' | 'newPassword' | 'confirmation';

function ChangePasswordForm() {
  const { t } = usePageTexts();
  const text = useMessageText();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FormErrors<PasswordField>>({ fields: {}, general: null });

  const change = useMutation({
    mutationFn: () =>
      api.call(routes.users.changePassword, { body: { currentPassword, newPassword } }),
    onSuccess: () => {
      showToast(t('security.passwordChanged'), { icon: 'success' });
      setCurrentPassword('');
      setNewPassword('');
      setConfirmation('');
      // The server may have signed other devices out.
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions() });
    },
    onError: (failure) =>
      setErrors(
        toFormErrors(failure, {
          fields: ['currentPassword', 'newPassword'],
          codeFields: { PASSWORD_INCORRECT: 'currentPassword' },
          fallback: 'modify',
        }),
      ),
  });

  const submit = () => {
    const pair = checkPasswordPair(passwordSchema, newPassword, confirmation);
    const fields = {
      currentPassword: currentPassword ? null : ({ key: 'rule.password' } as const),
      newPassword: pair.password,
      confirmation: pair.confirmation,
    };
    setErrors({
      fields: Object.fromEntries(Object.entries(fields).filter(([, value]) => value)),
      general: null,
    });
    if (!hasErrors(fields)) change.mutate();
  };

  return (
    <section className="tt-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="tt-section-title">
        {t('security.changePassword')}
      </h2>
      <form
        className="tt-form tt-content"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <PasswordField
          label={t('security.currentPassword')}
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrentPassword}
          error={text(errors.fields.currentPassword)}
        />
        <PasswordField
          label={t('security.newPassword')}
          autoComplete="new-password"
          value={newPassword}
          onChange={setNewPassword}
          hint={t('form.passwordHint')}
          error={text(errors.fields.newPassword)}
        />
        <PasswordField
          label={t('security.confirmPassword')}
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
          error={text(errors.fields.confirmation)}
        />
        {errors.general ? (
          <p className="tt-alert" role="alert">
            {text(errors.general)}
          </p>
        ) : null}
        <Button type="submit" block busy={change.isPending}>
          {t('security.submitPassword')}
        </Button>
      </form>
    </section>
  );
}

function SessionItem({ session, now }: { session: SessionInfo; now: number }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const nameId = useId();
  const summary = summariseUserAgent(session.userAgent);
  const device = t('security.device', {
    browser: summary.browser ?? t('security.unknownBrowser'),
    os: summary.os ?? t('security.unknownOs'),
  });

  const revoke = useMutation({
    mutationFn: () => api.call(routes.sessions.signOut, { params: { id: session.id } }),
    onSuccess: () => {
      showToast(t('security.revoked'), { icon: 'success' });
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions() });
    },
    onError: (failure) => {
      toastModifyFailure(failure);
    },
  });

  return (
    <li className="tt-session" aria-labelledby={nameId}>
      <div className="tt-session-head">
        <span id={nameId}>{device}</span>
        {session.current ? <span className="tt-tag">{t('security.thisDevice')}</span> : null}
      </div>
      <p className="tt-session-meta">
        {t('security.lastActive', { time: relativeTime(session.lastSeenAt, now, locale) })}
        {session.ip ? ` · ${t('security.ip', { ip: session.ip })}` : null}
      </p>
      <div className="tt-session-actions">
        {session.current ? (
          <Button
            variant="danger"
            small
            busy={logout.isPending}
            onClick={() => void logout.confirmAndLogout()}
          >
            {t('security.logout')}
          </Button>
        ) : (
          <Button
            variant="secondary"
            small
            busy={revoke.isPending}
            onClick={() => {
              void confirmModal(t('security.revokeConfirm'), device).then((yes) => {
                if (yes) revoke.mutate();
              });
            }}
          >
            {t('security.revoke')}
          </Button>
        )}
      </div>
    </li>
  );
}

function SessionList() {
  const { t } = usePageTexts();
  const headingId = useId();
  const sessions = useSessions();
  const now = sessions.dataUpdatedAt || Date.now();
  // This device first, then the most recently active.
  const ordered = [...(sessions.data?.sessions ?? [])].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt,
  );
  return (
    <section className="tt-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="tt-section-title">
        {t('security.devices')}
      </h2>
      <p className="tt-hint tt-section-intro">{t('security.devicesIntro')}</p>
      {sessions.error ? (
        <QueryError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : sessions.isLoading ? (
        <PageSpinner />
      ) : (
        <ul className="tt-list">
          {ordered.map((session) => (
            <SessionItem key={session.id} session={session} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The bound Pi account: bind (inside the Pi Browser), unbind; a phone for a Pi-only account. */
function PiSection({ me }: { me: Me }) {
  const { t } = usePageTexts();
  const headingId = useId();
  const queryClient = useQueryClient();
  const { client } = usePiClient();
  const updated = (next: Me) => queryClient.setQueryData(queryKeys.me(), next);

  const bind = useMutation({
    mutationFn: async () => {
      return api.call(routes.pi.bindSignedIn, {
        body: { accessToken: await piAccessToken(client!) },
      });
    },
    onSuccess: (next) => {
      updated(next);
      void handOverIncomplete();
      showToast(t('security.piBoundDone'), { icon: 'success' });
    },
    onError: (failure) => toastModifyFailure(failure),
  });
  const unbind = useMutation({
    mutationFn: () => api.call(routes.pi.unbind),
    onSuccess: (next) => {
      updated(next);
      client?.forget();
      showToast(t('security.unbound'), { icon: 'success' });
    },
    onError: (failure) => toastModifyFailure(failure),
  });

  return (
    <section className="tt-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="tt-section-title">
        {t('security.pi')}
      </h2>
      <ul className="tt-list">
        <li>
          <InfoRow
            label={t('security.pi')}
            value={
              me.piUsername
                ? t('security.piBound', { username: me.piUsername })
                : t('common.notSet')
            }
          >
            {me.piUsername ? (
              <Button
                variant="secondary"
                small
                busy={unbind.isPending}
                onClick={() => {
                  const text = t('security.unbindConfirm', { username: me.piUsername ?? '' });
                  void confirmModal(text).then((yes) => {
                    if (yes) unbind.mutate();
                  });
                }}
              >
                {t('security.unbindPi')}
              </Button>
            ) : client?.inPiBrowser ? (
              <Button small busy={bind.isPending} onClick={() => bind.mutate()}>
                {t('security.bindPi')}
              </Button>
            ) : null}
          </InfoRow>
        </li>
      </ul>
      {me.piUsername || !client || client.inPiBrowser ? null : (
        <>
          <p className="tt-hint tt-section-intro">{t('security.piNone')}</p>
          <PiOnlyNotice />
        </>
      )}
      {me.hasPassword ? null : (
        <p className="tt-hint tt-section-intro">{t('security.noPassword')}</p>
      )}
    </section>
  );
}

/**
 * A device signed in by QR code less than a day ago: what it cannot do alone until when,
 * and a way to confirm it is the person now.
 */
function HoldNotice() {
  const { t: ts } = useSecurityTexts();
  const locale = useUiLocale();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: queryKeys.stepUp(),
    queryFn: () => api.call(routes.security.stepUpStatus),
  });
  const heldUntil = status.data?.heldUntil ?? null;
  if (heldUntil === null || heldUntil <= Date.now()) return null;
  return (
    <div className="tt-hold-notice" role="status">
      <p>{ts('stepUp.holdNotice', { time: formatDateTime(heldUntil, locale) })}</p>
      <Button
        variant="secondary"
        onClick={() => {
          void stepUpGate.ask({ reason: 'hold', money: false }).then((proven) => {
            if (proven) void queryClient.invalidateQueries({ queryKey: queryKeys.stepUp() });
          });
        }}
      >
        {ts('stepUp.confirmAction')}
      </Button>
    </div>
  );
}

/** The account's email and phone, each changed (or added) through a code to the new one. */
function AddressSection({ me }: { me: Me }) {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const headingId = useId();
  return (
    <section className="tt-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="tt-section-title">
        {ts('account.addresses')}
      </h2>
      <ul className="tt-list tt-address-list">
        {(['email', 'phone'] as const).map((channel) => {
          const current = currentAddress(me, channel);
          return (
            <li key={channel}>
              <InfoRow label={ts(`account.${channel}`)} value={current ?? t('common.notSet')}>
                <Link
                  className="tt-button tt-button-secondary tt-row-action"
                  to={withQuery(paths.changeAddress, { channel })}
                  aria-label={ts(addressTitleKey(channel, current !== null))}
                >
                  {current !== null ? ts('account.change') : ts('account.add')}
                </Link>
              </InfoRow>
            </li>
          );
        })}
        <li>
          <LinkRow to={paths.securityActivity} label={ts('account.activity')} />
        </li>
      </ul>
    </section>
  );
}

/**
 * `/pages/user/accountSecurity`: a notice while this device is on hold, the email and
 * phone, the security activity, the Pi account, the password (for an account that has
 * one), and signed-in devices.
 */
export function AccountSecurityPage() {
  const { t } = usePageTexts();
  const me = useMe();
  return (
    <Page title={t('security.title')} flush>
      <HoldNotice />
      {me.data ? <AddressSection me={me.data} /> : null}
      {me.data ? <PiSection me={me.data} /> : null}
      {me.data?.hasPassword ? <ChangePasswordForm /> : null}
      <SessionList />
    </Page>
  );
}
