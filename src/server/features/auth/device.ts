// A session's device in a person's words ('Chrome on Android'), from the User-Agent it started with.
// Only this summary is stored, never the header itself (decision 022 says why not a library).

const BROWSERS: [RegExp, string][] = [
  // Order matters: Edge, Opera and Samsung Internet also say "Chrome", Chrome also says "Safari".
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\b(?:Headless)?Chrome\/|\bChromium\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  // iPadOS and iOS before macOS (they say "like Mac OS X"), Android before Linux.
  [/\biPad\b/, 'iPad'],
  [/\biPhone\b|\biPod\b/, 'iPhone'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export const UNKNOWN_DEVICE = 'Unknown device';

/** 'Chrome on Android', 'Safari on iPhone', 'Firefox on Windows'; what is not known is left out. */
export function summariseDevice(userAgent: string | undefined | null): string {
  if (!userAgent) return UNKNOWN_DEVICE;
  const ua = userAgent.slice(0, 512);
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? UNKNOWN_DEVICE;
}
