import { inviteCodeSchema } from '@teltlk/protocol';
import { useEffect, useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link, useSearchParams } from 'react-router';
import { useSignedIn } from '../../app/guards';
import { paths } from '../../app/paths';
import { Page } from '../../ui/page';
import { showToast } from '../../ui/toast';
import { DestinationForm } from './destination-form';
import { useLaterStepsFetched } from './later-steps';
import { useRegistrationDraft } from './registration-draft';

function RegisterForm({ phoneOnly = false }: { phoneOnly?: boolean }) {
  const { t } = usePageTexts();
  const agreeId = useId();
  const draft = useRegistrationDraft();
  const [agreed, setAgreed] = useState(false);

  return (
    <Page title={t('register.title')}>
      <div className="tt-auth">
        <p className="tt-hint">{t('register.intro')}</p>
        {draft.inviteCode ? (
          <p className="tt-hint" data-testid="invited-with">
            {t('register.invitedWith', { code: draft.inviteCode })}
          </p>
        ) : null}
        <DestinationForm
          purpose="register"
          codePath={paths.sendCode}
          submitLabel={t('register.getCode')}
          phoneOnly={phoneOnly}
          beforeSend={() => {
            if (!agreed) showToast(t('register.mustAgree'));
            return agreed;
          }}
          onSent={(channel, destination) => {
            // A new phone or email starts a new registration; the rest can stay.
            if (draft.channel !== channel || draft.destination !== destination) {
              draft.update({ channel, destination, ticket: null });
            }
          }}
        >
          <div className="tt-checkbox-row">
            <input
              id={agreeId}
              type="checkbox"
              checked={agreed}
              aria-label={t('register.agree')}
              onChange={(event) => setAgreed(event.target.checked)}
            />
            <span>
              <label htmlFor={agreeId}>{t('register.agreePrefix')}</label>{' '}
              <Link to={paths.agreement}>{t('legal.agreement')}</Link> {t('register.and')}{' '}
              <Link to={paths.privacy}>{t('legal.privacy')}</Link>
            </span>
          </div>
        </DestinationForm>
        <Link className="tt-link-button" to={paths.login}>
          {t('register.haveAccount')}
        </Link>
      </div>
    </Page>
  );
}

/**
 * `/pages/register/register`: sign up with a phone number or an email address. Opened by
 * an invitation link (`?invite=<code>`), the code is kept for the last step.
 */
export function RegisterPage() {
  const [params] = useSearchParams();
  const invited = inviteCodeSchema.safeParse(params.get('invite') ?? '');
  const code = invited.success ? invited.data : null;
  const update = useRegistrationDraft((draft) => draft.update);
  useEffect(() => {
    if (code) update({ inviteCode: code });
  }, [code, update]);
  useLaterStepsFetched(true);
  return <RegisterForm />;
}

/** Adding a phone to the signed-in account (one made through Pi has none). */
function AddPhoneForm() {
  const { t } = usePageTexts();
  return (
    <Page title={t('pi.addPhoneTitle')}>
      <div className="tt-auth">
        <p className="tt-hint">{t('pi.addPhoneIntro')}</p>
        <DestinationForm
          purpose="register"
          codePath={paths.sendCode}
          codeQuery={{ then: 'addPhone' }}
          submitLabel={t('pi.addPhoneSubmit')}
          phoneOnly
        />
      </div>
    </Page>
  );
}

/**
 * `/pages/register/bindPhoneNumber`: signed in, a phone number added to the account;
 * signed out, the phone variant of registration.
 */
export function BindPhonePage() {
  return useSignedIn() ? <AddPhoneForm /> : <RegisterForm phoneOnly />;
}
