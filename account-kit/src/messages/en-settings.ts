// English texts of the account settings page (section keys 'settings.*'); spread into the English catalogue.
export const enSettings = {
} as const;
