import type { Settings, UpdateSettingsBody } from '@teltlk/protocol';

/** The settings with a change applied, as shown before the server answers. */
export function applyPatch(current: Settings, patch: UpdateSettingsBody): Settings {
  return { ...current, ...patch };
}

/**
 * Undoes one failed change: only the keys it touched go back to their earlier values,
 * so another switch flipped meanwhile keeps its own state.
 */
export function revertPatch(
  current: Settings,
  previous: Settings,
  patch: UpdateSettingsBody,
): Settings {
  const reverted: Settings = { ...current };
  for (const key of Object.keys(patch) as (keyof UpdateSettingsBody)[]) {
    if (key in previous) Object.assign(reverted, { [key]: previous[key] });
  }
  return reverted;
}
