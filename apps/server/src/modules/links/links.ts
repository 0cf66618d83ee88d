/**
 * Where /external_resource/link/{name}/ leads: the vendor's public documentation and community.
 * The web app links to the names, never to the addresses, so a moved page is a configuration
 * change (EXTERNAL_LINKS) and not a new build.
 */
export const DEFAULT_EXTERNAL_LINKS = {
  face_sdk_docs: 'https://docs.facesdk.3divi.com/',
  face_sdk_docs_offline_license: 'https://docs.facesdk.3divi.com/docs/development/license_activation/',
  face_sdk_docs_locking_to_a_usb_token: 'https://docs.facesdk.3divi.com/docs/development/license_activation/#usb-token',
  face_machine_docs: 'https://face.3divi.com/docs',
  nuitrack_docs: 'https://github.com/3DiVi/nuitrack-sdk',
  nuitrack_forum: 'https://community.nuitrack.com/',
  nuitrack_analytics_docs: 'https://github.com/3DiVi/nuitrack-sdk',
  privacy_policy: 'https://3divi.com/privacy-policy/',
} as const satisfies Record<string, string>

export type ExternalLinks = Record<string, string>

export const externalLinks = (overrides: ExternalLinks | undefined): ExternalLinks => ({ ...DEFAULT_EXTERNAL_LINKS, ...overrides })
