// What counts as a device for the notice of a sign-in from a new one (ASVS 2.5.5): the browser, system and (where a
// user agent names it) the kind and model of device, versions left out so that an update is not a new device. The
// user agent is read with ua-parser-js (user agents are too irregular for a hand-written parser). Only a hash of the
// device is stored (known_devices); the notice names the browser and system in words.
import { createHash } from 'node:crypto';
import { UAParser } from 'ua-parser-js';

export interface Device { hash: string; label: string }

/** The device a sign-in came from, by its user agent (absent: one "unknown device" per user). */
export function deviceOf(userAgent: string | null | undefined): Device {
  const ua = (userAgent ?? '').slice(0, 1_000);
  const parsed = new UAParser(ua).getResult();
  const browser = parsed.browser.name;
  const system = parsed.os.name;
  const label = browser && system ? `${browser} on ${system}` : browser ?? system ?? (ua ? ua.slice(0, 100) : 'an unknown device');
  // Names, never versions; a user agent naming nothing known is its text without the digits of its versions.
  const known = [browser, system, parsed.device.type, parsed.device.vendor, parsed.device.model];
  const key = known.some(Boolean) ? known.map((part) => part ?? '').join('|') : ua.replace(/[\d._]+/g, '');
  return { hash: createHash('sha256').update(key).digest('hex'), label };
}
