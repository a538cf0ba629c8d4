// Which browser and operating system a session was signed in from, read from the user agent the service recorded
// at sign-in (issue 25). ua-parser-js does the reading: user agents are too irregular for a hand-written parser.
import { UAParser } from 'ua-parser-js';

export interface SessionDevice {
  /** "Chrome 156", "Mobile Safari 17"; null when unknown. */
  browser: string | null;
  /** "macOS 14.5", "iOS 17.4", "Linux"; null when unknown. */
  os: string | null;
  /** "mobile", "tablet", ... as ua-parser-js tells; null for a desktop (which user agents do not name). */
  deviceType: string | null;
}

const joined = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(' ') || null;

export function sessionDevice(userAgent: string | null | undefined): SessionDevice {
  if (!userAgent) return { browser: null, os: null, deviceType: null };
  const r = new UAParser(userAgent).getResult();
  return {
    browser: r.browser.name ? joined(r.browser.name, r.browser.major) : null,
    os: r.os.name ? joined(r.os.name, r.os.version) : null,
    deviceType: r.device.type ?? null,
  };
}
