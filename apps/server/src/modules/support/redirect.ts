import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c, displayName, type SupportService } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Config } from '../../platform/config.ts'
import { route } from '../../platform/contract-route.ts'
import { SSO_TOKEN_SECONDS, type SsoSigner } from '../../platform/sso.ts'
import { findClientById } from '../account/service.ts'
import { findLicense } from '../licenses/service.ts'

/** Where the support and cloud-service links lead unless the configuration names other addresses. */
export const SERVICE_URLS = {
  freshdesk: 'https://support.3divi.com/support/tickets/new',
  'face-machine': 'https://face-machine.3divi.com/',
  'nuitrack-analytics': 'https://analytics.nuitrack.com/',
} as const satisfies Record<SupportService, string>

export const serviceUrl = (config: Config, service: SupportService): string =>
  ({
    freshdesk: config.SUPPORT_SERVICE_URL,
    'face-machine': config.FACE_MACHINE_SERVICE_URL,
    'nuitrack-analytics': config.NUITRACK_ANALYTICS_SERVICE_URL,
  })[service] ?? SERVICE_URLS[service]

/** The portal page that sends a client who has just signed in on to the service (apps/web: service-redirect). */
export const signInFirstPath = (service: string, licenseId: number | undefined) => {
  const back = `/app/service-redirect/?service=${encodeURIComponent(service)}${licenseId ? `&license_id=${licenseId}` : ''}`
  return `/app/login/?next=${encodeURIComponent(back)}`
}

/**
 * GET /service/redirect/: hands a signed-in client to the helpdesk or a cloud service with a signed
 * single-sign-on token (`sso`, docs/sso.md) and, on a license's screens, its license id (only the
 * client's own: another id is left out); a signed-out visitor signs in first and comes back here.
 */
export const serviceRedirectRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sso: SsoSigner }> = async (app, { ctx, sso }) => {
  route(app, c.serviceRedirect, async (req, reply) => {
    const { service, license_id } = req.query
    // the token is a credential: never cached, never passed on as a referrer
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')
    const client = req.session ? await findClientById(ctx.db, req.session.id) : null
    if (!client) return reply.redirect(signInFirstPath(service, license_id), 302)
    const licenseId = license_id && (await findLicense(ctx.db, client.id, license_id)) ? license_id : undefined
    const url = new URL(serviceUrl(ctx.config, service))
    if (licenseId) url.searchParams.set('license_id', String(licenseId))
    url.searchParams.set(
      'sso',
      sso.token(
        { aud: service, sub: String(client.id), email: client.email, name: displayName(client), ...(licenseId ? { license_id: licenseId } : {}) },
        new Date(),
      ),
    )
    return reply.redirect(url.toString(), 302)
  })
  route(app, c.ssoPublicKey, async () => ({
    algorithm: 'Ed25519' as const,
    kid: sso.kid,
    issuer: sso.issuer,
    token_seconds: SSO_TOKEN_SECONDS,
    public_key: sso.publicKeyPem,
  }))
}
