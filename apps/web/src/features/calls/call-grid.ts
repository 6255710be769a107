/* The group call's grid, worked out. */

/** Columns of the group grid: one person alone, two side by side, then a square. */
export function gridColumns(count: number): number {
  if (count <= 1) return 1;
  if (count <= 4) return 2;
  if (count <= 9) return 3;
  return 4;
}
