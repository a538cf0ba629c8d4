// German texts of the account settings page; same keys as en-settings.ts.
import type { enSettings } from './en-settings';

export const deSettings: Record<keyof typeof enSettings, string> = {
};
