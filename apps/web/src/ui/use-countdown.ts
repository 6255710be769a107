import { useEffect, useState } from 'react';

/** Whole seconds left until `until` (epoch ms), 0 when past; 0 for null. */
export function secondsUntil(until: number | null, now: number): number {
  if (until === null) return 0;
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** Seconds left until a moment, ticking once a second while above zero. */
export function useCountdown(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  const left = secondsUntil(until, now);
  useEffect(() => {
    if (until === null) return;
    const tick = () => setNow(Date.now());
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return left;
}
