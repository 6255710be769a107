import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'onChange' | 'value' | 'prefix'
> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string;
  /** Shown before the input inside the box, e.g. the area-code picker. */
  prefix?: ReactNode;
  /** Shown after the input inside the box, e.g. the show-password toggle. */
  suffix?: ReactNode;
  /** Hides the visible label (the input keeps it as its accessible name). */
  hideLabel?: boolean;
}

/** A labelled native input with its hint and error tied to it for assistive technology. */
export function TextField({
  label,
  value,
  onChange,
  hint,
  error,
  prefix,
  suffix,
  hideLabel,
  id,
  ...rest
}: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy =
    [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="tt-field">
      <label className={hideLabel ? 'tt-visually-hidden' : 'tt-label'} htmlFor={inputId}>
        {label}
      </label>
      <div className="tt-field-control" data-invalid={error ? 'true' : undefined}>
        {prefix}
        {/* Names and messages may be in Arabic or Hebrew: the text sets the direction. */}
        <input
          dir="auto"
          {...rest}
          id={inputId}
          className="tt-input"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
        {suffix}
      </div>
      {hint ? (
        <p id={hintId} className="tt-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="tt-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'suffix'>;

/** A password input with a show/hide toggle. */
export function PasswordField(props: PasswordFieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      suffix={
        // The name is text, not aria-label, so getByLabel('Password') finds only the input.
        <button
          type="button"
          className="tt-icon-button"
          aria-pressed={visible}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? <EyeOutline aria-hidden /> : <EyeInvisibleOutline aria-hidden />}
          <span className="tt-visually-hidden">{t('form.showPassword')}</span>
        </button>
      }
    />
  );
}
