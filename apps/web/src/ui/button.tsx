import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger';
  block?: boolean;
  small?: boolean;
  /** Shows a spinner and blocks further clicks while the action runs. */
  busy?: boolean;
  children: ReactNode;
}

export function Button({
  variant = 'primary',
  block = false,
  small = false,
  busy = false,
  type = 'button',
  className,
  disabled,
  children,
  ...rest
}: ButtonProps) {
  const classes = [
    'tt-button',
    `tt-button-${variant}`,
    block && 'tt-button-block',
    small && 'tt-button-small',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      {...rest}
      type={type}
      className={classes}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy ? <span className="tt-button-spinner" aria-hidden /> : null}
      {children}
    </button>
  );
}
