/** Compares dotted versions part by part as numbers ("1.0.02" is 1.0.2): <0, 0 or >0. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const right = b.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** What the server's answer means for this copy of the app. */
export type VersionStanding = 'maintenance' | 'required' | 'available' | 'current';

export function standingOf(
  mine: string,
  server: { version: string; minimum: string; maintenance: boolean },
): VersionStanding {
  if (server.maintenance) return 'maintenance';
  if (compareVersions(mine, server.minimum) < 0) return 'required';
  if (compareVersions(mine, server.version) < 0) return 'available';
  return 'current';
}
