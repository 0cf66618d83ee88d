/** The release and commit this app was built from (vite.config.ts stamps it; build-version.ts). */
export const PORTAL_VERSION: string = import.meta.env.VITE_PORTAL_VERSION ?? 'dev'
