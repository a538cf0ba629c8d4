// What counts as a device for the notice of a sign-in from a new one (ASVS 2.5.5): the browser and system a
// request's user agent names, versions left out, so that a browser update is not a new device. Only a hash of it is
// stored (known_devices); the notice names the browser and system in words.
import { createHash } from 'node:crypto';

export interface Device { hash: string; label: string }

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'], [/OPR\/|Opera/, 'Opera'], [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'], [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows/, 'Windows'], [/iPhone|iPad|iPod/, 'iOS'], [/Android/, 'Android'], [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'], [/Linux/, 'Linux'],
];

const first = (ua: string, list: [RegExp, string][]) => list.find(([re]) => re.test(ua))?.[1];

/** The device a sign-in came from, by its user agent (absent: one "unknown device" per user). */
export function deviceOf(userAgent: string | null | undefined): Device {
  const ua = (userAgent ?? '').slice(0, 1_000);
  const browser = first(ua, BROWSERS);
  const system = first(ua, SYSTEMS);
  const label = browser && system ? `${browser} on ${system}` : browser ?? system ?? (ua ? ua.slice(0, 100) : 'an unknown device');
  // Versions (digits, dots, underscores) vary with every update; the rest names the product and platform.
  const key = ua.replace(/[\d._]+/g, '');
  return { hash: createHash('sha256').update(key).digest('hex'), label };
}
