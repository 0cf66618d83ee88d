import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c, displayName, type SupportService } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Config } from '../../platform/config.ts'
import { route } from '../../platform/contract-route.ts'
import { fail } from '../../platform/errors.ts'
import { SSO_TOKEN_SECONDS, type RsaSigner, type SsoSigner } from '../../platform/sso.ts'
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

/** The portal page a signed-out visitor of the helpdesk's sign-on comes back to after signing in (apps/web: service-redirect). */
export const helpdeskSignInFirstPath = (query: Record<string, string | undefined>) => {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined))
  return `/app/login/?next=${encodeURIComponent(`/app/service-redirect/?helpdesk=${encodeURIComponent(params.toString())}`)}`
}

/**
 * GET /service/redirect/: hands a signed-in client to the helpdesk or a cloud service with, on a
 * license's screens, its license id (only the client's own: another id is left out); a signed-out
 * visitor signs in first and comes back here. The cloud services get a signed single-sign-on token
 * (`sso`, docs/sso.md); the helpdesk signs the client in by its own request to
 * /service/freshdesk/authorize/, so no token rides on its address.
 * GET /service/freshdesk/authorize/: that request, the helpdesk's custom JWT sign-on.
 */
export const serviceRedirectRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sso: SsoSigner; rsa: RsaSigner }> = async (app, { ctx, sso, rsa }) => {
  route(app, c.serviceRedirect, async (req, reply) => {
    const { service, license_id } = req.query
    // the token is a credential: never cached, never passed on as a referrer
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')
    const client = req.session ? await findClientById(ctx.db, req.session.id) : null
    if (!client) return reply.redirect(signInFirstPath(service, license_id), 302)
    const licenseId = license_id && (await findLicense(ctx.db, client.id, license_id)) ? license_id : undefined
    const url = new URL(serviceUrl(ctx.config, service))
    if (licenseId) url.searchParams.set('license_id', String(licenseId))
    if (service === 'freshdesk') return reply.redirect(url.toString(), 302)
    url.searchParams.set(
      'sso',
      sso.token(
        { aud: service, sub: String(client.id), email: client.email, name: displayName(client), ...(licenseId ? { license_id: licenseId } : {}) },
        new Date(),
      ),
    )
    return reply.redirect(url.toString(), 302)
  })
  route(app, c.freshdeskAuthorize, async (req, reply) => {
    const { client_id, redirect_uri, state, nonce } = req.query
    const { FRESHDESK_SSO_CLIENT_ID: clientId, FRESHDESK_SSO_REDIRECT_URI: redirectUri } = ctx.config
    // never a redirect anywhere but the one address the configuration names
    if (!clientId || !redirectUri || client_id !== clientId || redirect_uri !== redirectUri) return fail('sso_client_unknown')
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')
    const client = req.session ? await findClientById(ctx.db, req.session.id) : null
    if (!client) return reply.redirect(helpdeskSignInFirstPath(req.query), 302)
    const idToken = rsa.idToken({
      aud: clientId,
      sub: String(client.id),
      email: client.email,
      given_name: client.name || client.email.split('@')[0]!,
      family_name: client.last_name,
      nonce,
    })
    const url = new URL(redirectUri)
    url.searchParams.set('state', state)
    url.searchParams.set('id_token', idToken)
    return reply.redirect(url.toString(), 302)
  })
  route(app, c.freshdeskPublicKey, async () => ({ algorithm: 'RS256' as const, kid: rsa.kid, public_key: rsa.publicKeyPem }))
  route(app, c.ssoPublicKey, async () => ({
    algorithm: 'Ed25519' as const,
    kid: sso.kid,
    issuer: sso.issuer,
    token_seconds: SSO_TOKEN_SECONDS,
    public_key: sso.publicKeyPem,
  }))
}
