/**
 * Where the device API lives (modules/activation: the SDK's activate, validate and deactivate). Its
 * callers are programs in the field, not browsers: no session or CSRF (session.ts), no compression
 * (web-app.ts), and an API's headers instead of a page's (security-headers.ts).
 */
export const DEVICE_API_PREFIX = '/api/sdk/'
