import { useId, type ReactNode } from 'react';
import './list.css';

/** A block of a settings list, named by its heading when it has one. */
export function Section({ title, children }: { title?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="tt-section" aria-labelledby={title ? id : undefined}>
      {title ? (
        <h2 id={id} className="tt-section-title">
          {title}
        </h2>
      ) : null}
      {children}
    </section>
  );
}
