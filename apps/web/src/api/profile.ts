/** GET /api/client/ lives in lib/auth.ts (one query key for the whole app); re-exported for older imports. */
export { getProfile, profileQueryOptions, useProfile } from '../lib/auth.ts'
