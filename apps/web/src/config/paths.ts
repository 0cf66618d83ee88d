import { STAFF_FORM_PATHS, type Platform } from '@portal/domain'

/**
 * Every route pattern of the portal, in one table: the router's route table is built from these
 * and every link below is filled in from them, so a link cannot point where no route is. Patterns
 * end with a slash, as the spec writes paths (React Router matches with or without it).
 */
export const routes = {
  root: '/app/',
  login: '/app/login/',
  registration: '/app/registration/',
  forgotPassword: '/app/forgot-password/',
  setPassword: '/app/set-password/:id/:token/',
  confirm: '/app/confirm/',
  registrationConfirm: '/app/registration-confirm/:id/:token/',
  /** the old address's link that undoes an e-mail change */
  emailRevert: '/app/email-revert/:id/:token/',
  logout: '/app/logout/',
  analyticsLogin: '/app/login/nuitrack-analytics/',
  analyticsRegistration: '/app/registrate/nuitrack-analytics/',
  faceMachineLogin: '/app/login/face-machine/',
  faceMachineRegistration: '/app/registrate/face-machine/',
  faceFaceMachine: '/app/face/face-machine/',
  platform: '/app/:platform/',
  dashboard: '/app/:platform/dashboard/',
  licenseInfo: '/app/:platform/dashboard/:id/info/',
  /** a renewal whose card asked for authentication, paid on-session (the mail's link) */
  renewalPayment: '/app/:platform/dashboard/:id/renewal-payment/',
  preInfo: '/app/:platform/dashboard/:id/pre-info/',
  basket: '/app/:platform/basket/',
  licenseSelection: '/app/:platform/basket/license-selection/',
  /** face only (the route answers not found for another platform) */
  customBuilder: '/app/:platform/basket/license-selection/create/',
  checkout: '/app/:platform/basket/checkout/',
  subscriptionCheckout: '/app/:platform/basket/checkout/subscriptions/:licenseType/',
  /** an upgrade's checkout: `upgrade` one license, `upgrade-y` a group; licenseType pro or trial */
  upgradeCheckout: '/app/:platform/basket/checkout/:checkoutType/:licenseType/:toUpgradeId/',
  licensePurchaseSuccess: '/app/:platform/license-purchase-success/',
  addFunds: '/app/:platform/add-funds/',
  balancePurchaseSuccess: '/app/:platform/balance-purchase-success/',
  account: '/app/account/',
  /** the current organisation's members and invitations */
  members: '/app/members/',
  /** an invitation mail's link */
  invitation: '/app/invitation/:token/',
  groupKeys: '/app/group-keys/',
  groupKeyInfo: '/app/group-keys/:id/group-key-info/',
  paymentDoc: '/app/payment-doc/',
  /** the account's fleet and spend: devices, licenses by status and expiry, spend per month */
  fleet: '/app/fleet/',
  /** after signing in, on to the service redirect (GET /api/service/redirect/ sends signed-out visitors here) */
  serviceRedirect: '/app/service-redirect/',
  staffPerpetual: STAFF_FORM_PATHS.perpetual,
  staffSubscription: STAFF_FORM_PATHS.subscription,
} as const

/** Section 2: an upgrade checkout is for one license (`upgrade`) or a group (`upgrade-y`), of a Pro license or a trial. */
export const UPGRADE_CHECKOUT_TYPES = ['upgrade', 'upgrade-y'] as const
export type UpgradeCheckoutType = (typeof UPGRADE_CHECKOUT_TYPES)[number]
export const UPGRADE_LICENSE_TYPES = ['pro', 'trial'] as const
export type UpgradeLicenseType = (typeof UPGRADE_LICENSE_TYPES)[number]

/** A pattern with its `:params` filled in (each value URL-encoded). */
export function fill(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`${pattern}: no value for :${name}`)
    return encodeURIComponent(String(value))
  })
}

/** Link targets, built from the patterns above. */
export const paths = {
  root: routes.root,
  members: routes.members,
  invitation: (token: string) => fill(routes.invitation, { token }),
  login: routes.login,
  registration: routes.registration,
  forgotPassword: routes.forgotPassword,
  setPassword: (id: string | number, token: string) => fill(routes.setPassword, { id, token }),
  confirm: routes.confirm,
  registrationConfirm: (id: string | number, token: string) => fill(routes.registrationConfirm, { id, token }),
  emailRevert: (id: string | number, token: string) => fill(routes.emailRevert, { id, token }),
  logout: routes.logout,
  analyticsLogin: routes.analyticsLogin,
  analyticsRegistration: routes.analyticsRegistration,
  faceMachineLogin: routes.faceMachineLogin,
  faceMachineRegistration: routes.faceMachineRegistration,
  platform: (platform: Platform) => fill(routes.platform, { platform }),
  dashboard: (platform: Platform) => fill(routes.dashboard, { platform }),
  licenseInfo: (platform: Platform, id: number | string) => fill(routes.licenseInfo, { platform, id }),
  renewalPayment: (platform: Platform, id: number | string) => fill(routes.renewalPayment, { platform, id }),
  preInfo: (platform: Platform, id: number | string, holded = false) => `${fill(routes.preInfo, { platform, id })}${holded ? '?holded' : ''}`,
  basket: (platform: Platform) => fill(routes.basket, { platform }),
  licenseSelection: (platform: Platform) => fill(routes.licenseSelection, { platform }),
  customBuilder: () => fill(routes.customBuilder, { platform: 'face' }),
  checkout: (platform: Platform) => fill(routes.checkout, { platform }),
  subscriptionCheckout: (platform: Platform, licenseType: string) => fill(routes.subscriptionCheckout, { platform, licenseType }),
  upgradeCheckout: (platform: Platform, checkoutType: UpgradeCheckoutType, licenseType: UpgradeLicenseType, id: number | string) =>
    fill(routes.upgradeCheckout, { platform, checkoutType, licenseType, toUpgradeId: id }),
  licensePurchaseSuccess: (platform: Platform, next?: string) =>
    `${fill(routes.licensePurchaseSuccess, { platform })}${next ? `?next=${encodeURIComponent(next)}` : ''}`,
  /** opens the fill-balance modal (with the amount when given), then the dashboard */
  addFunds: (platform: Platform, amount?: number) => `${fill(routes.addFunds, { platform })}${amount !== undefined ? `?amount=${amount}` : ''}`,
  /** where a top-up's checkout comes back to when it was not paid (cancelled, or declined by the sandbox) */
  balanceTopUpNotPaid: (platform: Platform) => `${fill(routes.dashboard, { platform })}?${TOP_UP_NOT_PAID.name}=${TOP_UP_NOT_PAID.value}`,
  /** where a top-up's checkout returns to; `next` (an /app/ path) is where closing the success modal goes */
  balancePurchaseSuccess: (platform: Platform, next?: string) =>
    `${fill(routes.balancePurchaseSuccess, { platform })}${next !== undefined ? `?next=${encodeURIComponent(next)}` : ''}`,
  account: routes.account,
  groupKeys: routes.groupKeys,
  groupKeyInfo: (id: number | string) => fill(routes.groupKeyInfo, { id }),
  paymentDoc: routes.paymentDoc,
  fleet: routes.fleet,
  /** alias of root, for code that calls it home */
  home: routes.root,
  staffPerpetual: routes.staffPerpetual,
  staffSubscription: routes.staffSubscription,
} as const

/** The query a top-up's unpaid return carries: the shell tells the customer, and takes it off the address. */
export const TOP_UP_NOT_PAID = { name: 'topup', value: 'not-paid' } as const
/** The same for a purchase's card or PayPal checkout left unpaid (declined or cancelled). */
export const PURCHASE_NOT_PAID = { name: 'payment', value: 'not-paid' } as const

/** An address of this app with a query added (a checkout's unpaid return). */
export function withQuery(path: string, query: { name: string; value: string }): string {
  const [pathname, search = ''] = path.split('?') as [string, string?]
  const params = new URLSearchParams(search)
  params.set(query.name, query.value)
  return `${pathname}?${params.toString()}`
}

/** The helpdesk (or cloud service) redirect, optionally about one license. */
export const supportUrl = (service: string, licenseId?: number | string) =>
  `/api/service/redirect/?service=${encodeURIComponent(service)}${licenseId !== undefined ? `&license_id=${encodeURIComponent(String(licenseId))}` : ''}`

/** Server-side redirects and external resources the app links to (not React routes). */
export const external = {
  support: supportUrl,
  analyticsService: supportUrl('nuitrack-analytics'),
  /** the helpdesk's custom JWT sign-on, which a signed-out visitor resumes after signing in */
  helpdeskAuthorize: '/api/service/freshdesk/authorize/',
} as const

/**
 * Documentation and community links go through the server's /external_resource/link/{name}/
 * redirect, so their addresses are configuration (EXTERNAL_LINKS) and not baked into the build.
 * The names are the server's link table (apps/server/src/modules/links/links.ts).
 */
const link = (name: string) => `/external_resource/link/${name}/`
export const EXTERNAL = {
  nuitrackDocs: link('nuitrack_docs'),
  forum: link('nuitrack_forum'),
  faceDocs: link('face_sdk_docs'),
  faceMachineDocs: link('face_machine_docs'),
  analyticsDocs: link('nuitrack_analytics_docs'),
  offlineLicenseDocs: link('face_sdk_docs_offline_license'),
  usbTokenDocs: link('face_sdk_docs_locking_to_a_usb_token'),
  privacyPolicy: link('privacy_policy'),
} as const

/** Each platform's documentation. */
export const PLATFORM_DOCS: Record<Platform, string> = {
  nuitrack: EXTERNAL.nuitrackDocs,
  face: EXTERNAL.faceDocs,
  'face-machine': EXTERNAL.faceMachineDocs,
  'nuitrack-analytics': EXTERNAL.analyticsDocs,
}

/** Where a license's offline activation (its request file) is explained: Face SDK has a page of its own, the others their documentation. */
export const requestFileDocs = (platform: Platform) => (platform === 'face' ? EXTERNAL.offlineLicenseDocs : PLATFORM_DOCS[platform])
