/** The photo viewer's zoom: from fitting the screen (1) up to four times that (spec). */
export const zoomLimits = { min: 1, max: 4 } as const;

/** A horizontal move this long, on an unzoomed photo, goes to the next or previous one. */
export const SWIPE_MIN_PX = 60;

/** The zoom after a wheel step or a pinch by `factor`, kept within the limits. */
export function nextZoom(zoom: number, factor: number): number {
  const next = zoom * factor;
  return Math.min(zoomLimits.max, Math.max(zoomLimits.min, Math.round(next * 100) / 100));
}
