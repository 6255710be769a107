import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import {
  destinationSchemaFor,
  type Channel,
  type CodePurpose,
  type SendCodeResult,
} from '@teltlk/protocol';
import { useEffect, useState, type ReactNode } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { paths, withQuery } from '../../app/paths';
import { Button } from '../../ui/button';
import { composePhone, guessRegion } from '../../ui/countries';
import { toFormErrors, type Message } from '../../ui/error-message';
import { useCountryOptions } from '../../ui/pickers';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { cooldownKey, readRecord, recordSent } from './code-cooldown';
import { useContactDraft } from './contact-draft';

export interface DestinationFormProps {
  purpose: CodePurpose;
  /** The page that takes the code; it gets `channel` and `destination` in its query. */
  codePath: string;
  /** More of the code page's query (what the code is for, e.g. `bind=pi`). */
  codeQuery?: Record<string, string>;
  submitLabel: string;
  /** Only the phone channel (the bindPhoneNumber route). */
  phoneOnly?: boolean;
  /** Only this channel (an address of the account being changed). */
  channel?: Channel;
  /** Extra content before the button (the agreement on the register page). */
  children?: ReactNode;
  /** Runs before sending; returning false stops the send. */
  beforeSend?: () => boolean;
  /** Called with the checked destination before moving on to the code page. */
  onSent?: (channel: Channel, destination: string) => void;
}

/** Phone (with area code) or email, then a code is sent and the code page opens. */
export function DestinationForm({
  purpose,
  codePath,
  codeQuery,
  submitLabel,
  phoneOnly,
  channel: onlyChannel,
  children,
  beforeSend,
  onSent,
}: DestinationFormProps) {
  const { t, i18n } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const draft = useContactDraft();
  const { countries } = useCountryOptions();
  const fixed: Channel | undefined = onlyChannel ?? (phoneOnly ? 'phone' : undefined);
  const channel: Channel = fixed ?? draft.channel;
  const [error, setError] = useState<Message | null>(null);
  const [general, setGeneral] = useState<Message | null>(null);

  const { dialCountry, update } = draft;
  useEffect(() => {
    if (!dialCountry)
      update({ dialCountry: guessRegion(navigator.languages ?? [], i18n.language) });
  }, [dialCountry, update, i18n.language]);

  const country = countries.find((item) => item.code === draft.dialCountry);
  const dialCode = country?.dialCode ?? '';

  const send = useMutation({
    mutationFn: (body: { channel: Channel; destination: string }) =>
      api.call(routes.auth.sendCode, { body: { purpose, ...body } }),
  });

  const goToCode = (
    target: { channel: Channel; destination: string },
    result: SendCodeResult | null,
    waitSeconds: number,
  ) => {
    recordSent(
      sessionStorage,
      cooldownKey(purpose, target.channel, target.destination),
      Date.now(),
      result?.resendAfter ?? waitSeconds,
    );
    onSent?.(target.channel, target.destination);
    void navigate(
      withQuery(codePath, {
        purpose: codePath === paths.sendCode ? purpose : undefined,
        ...target,
        ...codeQuery,
      }),
    );
  };

  const submit = () => {
    setGeneral(null);
    const raw = channel === 'phone' ? composePhone(dialCode, draft.phoneNumber) : draft.email;
    const schema = destinationSchemaFor(channel);
    const invalid =
      (channel === 'phone' && !draft.phoneNumber.trim()) ||
      (channel === 'email' && !draft.email.trim())
        ? ({ key: 'rule.required' } as const)
        : checkField(schema, raw);
    setError(invalid);
    if (invalid || (beforeSend && !beforeSend())) return;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return;
    const target = { channel, destination: parsed.data };
    send.mutate(target, {
      onSuccess: (result) => {
        showToast(t('code.sent'), { icon: 'success' });
        goToCode(target, result, 0);
      },
      onError: (failure) => {
        // A code for this very purpose went out moments ago from here: it is still good,
        // so carry on to enter it. Otherwise (sent from another device or tab) the
        // message with its wait time shows below.
        if (failure instanceof ApiError && failure.code === 'CODE_TOO_FREQUENT') {
          const key = cooldownKey(purpose, target.channel, target.destination);
          if (readRecord(sessionStorage, key)) {
            const seconds = Number(failure.params?.seconds ?? 60);
            showToast(text({ key: 'error.CODE_TOO_FREQUENT', params: { seconds } }) ?? '');
            goToCode(target, null, seconds);
            return;
          }
        }
        const errors = toFormErrors(failure, {
          fields: ['destination'],
          codeFields: { ACCOUNT_REGISTERED: 'destination', ACCOUNT_NOT_FOUND: 'destination' },
          fallback: 'sendCode',
        });
        setError(errors.fields.destination ?? null);
        setGeneral(errors.general);
      },
    });
  };

  return (
    <form
      className="tt-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {fixed ? null : (
        <fieldset className="tt-segmented">
          <legend className="tt-visually-hidden">{t('channel.label')}</legend>
          {(['phone', 'email'] as const).map((option) => (
            <label key={option}>
              <input
                type="radio"
                name="channel"
                value={option}
                checked={channel === option}
                onChange={() => {
                  update({ channel: option });
                  setError(null);
                }}
              />
              {t(`channel.${option}`)}
            </label>
          ))}
        </fieldset>
      )}
      {channel === 'phone' ? (
        <TextField
          label={t('channel.phoneNumber')}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          value={draft.phoneNumber}
          onChange={(phoneNumber) => update({ phoneNumber })}
          error={text(error)}
          prefix={
            <Link
              className="tt-field-prefix"
              to={paths.area}
              aria-label={t('channel.countryCodeValue', {
                name: country?.name ?? draft.dialCountry ?? '',
                dialCode,
              })}
            >
              {dialCode || draft.dialCountry || '+'}
            </Link>
          }
        />
      ) : (
        <TextField
          label={t('channel.emailAddress')}
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="off"
          spellCheck={false}
          value={draft.email}
          onChange={(email) => update({ email })}
          error={text(error)}
        />
      )}
      {children}
      {general ? (
        <p className="tt-alert" role="alert">
          {text(general)}
        </p>
      ) : null}
      <Button type="submit" block busy={send.isPending}>
        {submitLabel}
      </Button>
    </form>
  );
}
