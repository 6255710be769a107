import { Button } from './button';

/** What a paged list offers for its next page (an infinite query has these). */
interface Paged {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** "Show more" under a paged list, while there is a next page. */
export function LoadMore({
  list,
  label,
  className = 'tt-section-intro',
}: {
  list: Paged;
  label: string;
  className?: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className={className}>
      <Button
        variant="secondary"
        block
        busy={list.isFetchingNextPage}
        onClick={() => void list.fetchNextPage()}
      >
        {label}
      </Button>
    </div>
  );
}
