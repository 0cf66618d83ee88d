import type { Platform } from '@portal/domain'

/** Every route path of the portal, in one place. Paths end with a slash, as the spec writes them. */
export const paths = {
  root: '/app/',
  login: '/app/login/',
  registration: '/app/registration/',
  forgotPassword: '/app/forgot-password/',
  setPassword: (id: string | number, token: string) => `/app/set-password/${id}/${token}/`,
  confirm: '/app/confirm/',
  registrationConfirm: (id: string | number, token: string) => `/app/registration-confirm/${id}/${token}/`,
  logout: '/app/logout/',
  analyticsLogin: '/app/login/nuitrack-analytics/',
  analyticsRegistration: '/app/registrate/nuitrack-analytics/',
  faceMachineLogin: '/app/login/face-machine/',
  faceMachineRegistration: '/app/registrate/face-machine/',
  platform: (p: Platform) => `/app/${p}/`,
  dashboard: (p: Platform) => `/app/${p}/dashboard/`,
  basket: (p: Platform) => `/app/${p}/basket/`,
  licenseInfo: (p: Platform, id: number | string) => `/app/${p}/dashboard/${id}/info/`,
  preInfo: (p: Platform, groupId: number | string, holded = false) => `/app/${p}/dashboard/${groupId}/pre-info/${holded ? '?holded' : ''}`,
  account: '/app/account/',
  groupKeys: '/app/group-keys/',
  groupKeyInfo: (id: number | string) => `/app/group-keys/${id}/group-key-info/`,
  paymentDoc: '/app/payment-doc/',
  staffPerpetual: '/app/staff/custom-license/perpetual/',
  staffSubscription: '/app/staff/custom-license/subscription/',
} as const

/** Router patterns (React Router matches with or without the trailing slash). */
export const routes = {
  app: '/app',
  login: '/app/login',
  registration: '/app/registration',
  forgotPassword: '/app/forgot-password',
  setPassword: '/app/set-password/:id/:token',
  confirm: '/app/confirm',
  registrationConfirm: '/app/registration-confirm/:id/:token',
  logout: '/app/logout',
  analyticsLogin: '/app/login/nuitrack-analytics',
  analyticsRegistration: '/app/registrate/nuitrack-analytics',
  faceMachineLogin: '/app/login/face-machine',
  faceMachineRegistration: '/app/registrate/face-machine',
  platform: '/app/:platform',
  dashboard: 'dashboard',
  licenseInfo: 'dashboard/:id/info',
  preInfo: 'dashboard/:id/pre-info',
  account: '/app/account',
  groupKeys: '/app/group-keys',
  groupKeyInfo: '/app/group-keys/:id/group-key-info',
  staffPerpetual: '/app/staff/custom-license/perpetual',
  staffSubscription: '/app/staff/custom-license/subscription',
  paymentDoc: '/app/payment-doc',
  faceFaceMachine: '/app/face/face-machine',
} as const

/** The helpdesk (or cloud service) redirect, optionally about one license. */
export const supportUrl = (service: string, licenseId?: number | string) =>
  `/api/service/redirect/?service=${encodeURIComponent(service)}${licenseId !== undefined ? `&license_id=${encodeURIComponent(String(licenseId))}` : ''}`

/** Server-side redirects and external resources the app links to (not React routes). */
export const external = {
  support: supportUrl,
  analyticsService: supportUrl('nuitrack-analytics'),
} as const

export const EXTERNAL = {
  nuitrackDocs: 'https://github.com/3DiVi/nuitrack-sdk',
  forum: 'https://community.nuitrack.com',
  faceDocs: 'https://face.3divi.com/docs',
  faceMachineDocs: 'https://face.3divi.com/docs',
  analyticsDocs: 'https://github.com/3DiVi/nuitrack-sdk',
  offlineLicenseDocs: '/external_resource/link/face_sdk_docs_offline_license/',
  usbTokenDocs: '/external_resource/link/face_sdk_docs_locking_to_a_usb_token/',
} as const
