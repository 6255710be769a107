export interface DeviceSummary {
  browser: string | null;
  os: string | null;
}

const browsers: [RegExp, string][] = [
  [/PiBrowser/i, 'Pi Browser'],
  [/EdgA?\/|EdgiOS\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/MicroMessenger\//, 'WeChat'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/HeadlessChrome\//, 'Headless Chrome'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/iPhone|iPod/, 'iOS'],
  [/iPad/, 'iPadOS'],
  [/Android/, 'Android'],
  [/Windows NT|Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/HarmonyOS/, 'HarmonyOS'],
  [/Linux/, 'Linux'],
];

/** Browser and system names read off a user agent; null where it does not say. */
export function summariseUserAgent(userAgent: string | null | undefined): DeviceSummary {
  if (!userAgent) return { browser: null, os: null };
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  const os = systems.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  return { browser, os };
}
