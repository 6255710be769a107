import type { ReactNode } from 'react';
import './empty-state.css';

export function EmptyState({
  icon,
  title,
  text,
  children,
}: {
  icon?: ReactNode;
  title: string;
  text: string;
  children?: ReactNode;
}) {
  return (
    <section className="tt-empty">
      {icon ? (
        <span className="tt-empty-icon" aria-hidden>
          {icon}
        </span>
      ) : null}
      <h2>{title}</h2>
      <p>{text}</p>
      {children}
    </section>
  );
}
