import { RightOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import './list.css';

interface RowContentProps {
  icon?: ReactNode;
  label: ReactNode;
  value?: ReactNode;
  chevron?: boolean;
}

function RowContent({ icon, label, value, chevron }: RowContentProps) {
  return (
    <>
      {icon ? (
        <span className="tt-row-icon" aria-hidden>
          {icon}
        </span>
      ) : null}
      <span className="tt-row-label" dir="auto">
        {label}
      </span>
      {value !== undefined ? (
        <span className="tt-row-value" dir="auto">
          {value}
        </span>
      ) : null}
      {chevron ? <RightOutline className="tt-row-chevron" aria-hidden /> : null}
    </>
  );
}

/** A list row that navigates inside the app. */
export function LinkRow({ to, ...content }: RowContentProps & { to: string }) {
  return (
    <Link className="tt-row" to={to}>
      <RowContent chevron {...content} />
    </Link>
  );
}

/** A list row that performs an action. */
export function ButtonRow({
  onClick,
  ariaLabel,
  ...content
}: RowContentProps & { onClick: () => void; ariaLabel?: string }) {
  return (
    <button type="button" className="tt-row" onClick={onClick} aria-label={ariaLabel}>
      <RowContent chevron {...content} />
    </button>
  );
}

/** A list row that only shows a value. */
export function InfoRow({
  label,
  value,
  children,
}: {
  label: ReactNode;
  value?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="tt-row">
      <span className="tt-row-label" dir="auto">
        {label}
      </span>
      {value !== undefined ? (
        <span className="tt-row-value" dir="auto">
          {value}
        </span>
      ) : null}
      {children}
    </div>
  );
}
