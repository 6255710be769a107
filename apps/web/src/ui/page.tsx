import type { ReactNode } from 'react';
import { PageHeader, type PageHeaderProps } from './page-header';

interface PageProps extends PageHeaderProps {
  children: ReactNode;
  /** Content runs edge to edge (lists) instead of inside page padding. */
  flush?: boolean;
}

/** A page with the custom header and its main content. */
export function Page({ children, flush = false, ...header }: PageProps) {
  return (
    <div className="tt-page">
      <PageHeader {...header} />
      <main className={flush ? 'tt-content-flush' : 'tt-content'}>{children}</main>
    </div>
  );
}
