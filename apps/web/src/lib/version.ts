/** The release and commit this app was built from (vite.config.ts stamps it; build-version.ts). */
export const PORTAL_VERSION: string = import.meta.env.VITE_PORTAL_VERSION ?? 'dev'

/** Section 9: the copyright's year is the current UTC year. */
export const copyrightYear = (now = new Date()) => now.getUTCFullYear()
