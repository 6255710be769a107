import { PAYMENT_PASSWORD_LENGTH } from '@teltlk/protocol';
import { useId } from 'react';
import { usePageTexts } from '../i18n/pages';
import './money.css';
import './code-input.css';

export interface PasscodePadProps {
  /** What to enter, read out and shown above the boxes. */
  prompt: string;
  value: string;
  onChange: (value: string) => void;
  /** Called once the sixth digit is in. */
  onComplete: (passcode: string) => void;
  error?: string;
  disabled?: boolean;
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '', '0', 'delete'] as const;

/**
 * The payment password: six boxes that show a dot per digit, a native numeric input under
 * them (physical keyboards, screen readers), and an on-screen number pad for phones.
 */
export function PasscodePad({
  prompt,
  value,
  onChange,
  onComplete,
  error,
  disabled,
}: PasscodePadProps) {
  const { t } = usePageTexts();
  const id = useId();
  const set = (next: string) => {
    const digits = next.replace(/\D/g, '').slice(0, PAYMENT_PASSWORD_LENGTH);
    onChange(digits);
    if (digits.length === PAYMENT_PASSWORD_LENGTH) onComplete(digits);
  };
  return (
    <div className="tt-passcode">
      <label className="tt-passcode-prompt" htmlFor={id}>
        {prompt}
      </label>
      <div className="tt-code tt-passcode-boxes" data-invalid={error ? 'true' : undefined}>
        {Array.from({ length: PAYMENT_PASSWORD_LENGTH }, (_, index) => (
          // A fixed row of positions: the index is its identity.
          <span key={index} className="tt-code-box" aria-hidden>
            {index < value.length ? '•' : ''}
          </span>
        ))}
        <input
          id={id}
          className="tt-code-input"
          type="password"
          value={value}
          inputMode="numeric"
          autoComplete="off"
          pattern="[0-9]*"
          maxLength={PAYMENT_PASSWORD_LENGTH}
          disabled={disabled}
          aria-label={t('wallet.passcode')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => set(event.target.value)}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} className="tt-alert" role="alert">
          {error}
        </p>
      ) : null}
      <div className="tt-passcode-keys">
        {KEYS.map((key) =>
          key === '' ? (
            <span key="blank" />
          ) : (
            <button
              key={key}
              type="button"
              className="tt-passcode-key"
              disabled={disabled}
              aria-label={
                key === 'delete' ? t('wallet.deleteDigit') : t('wallet.digit', { digit: key })
              }
              onClick={() => set(key === 'delete' ? value.slice(0, -1) : value + key)}
            >
              {key === 'delete' ? '⌫' : key}
            </button>
          ),
        )}
      </div>
    </div>
  );
}
