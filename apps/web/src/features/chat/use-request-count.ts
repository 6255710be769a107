import { useCallback, useState } from 'react';

/**
 * A count that goes up with each request, for a child that acts whenever it changes
 * (the message list scrolling to the end, the composer taking focus).
 */
export function useRequestCount(): [count: number, request: () => void] {
  const [count, setCount] = useState(0);
  const request = useCallback(() => setCount((current) => current + 1), []);
  return [count, request];
}
