import { z } from '../zod.ts'
import { contract, okSchema } from '../contract.ts'
import { analyticsFillInfoBody, analyticsSignupBody } from '../analytics.ts'
import { text } from '../fields.ts'
import { SUPPORT_SERVICES } from '../platforms.ts'

const changelogEntry = z.object({ version: z.string(), date: z.string(), changes: z.array(z.string()) })
const analyticsTags = ['nuitrack-analytics']

/** The calls of the changelog, the analytics sign-up, health, the service redirect and the local CLI. */
export const platformContracts = {
  changelog: contract({
    method: 'GET',
    path: '/changelog/',
    auth: 'public',
    tags: ['changelog'],
    summary: 'Release notes, newest first',
    response: { 200: z.object({ entries: z.array(changelogEntry) }) },
    errors: [],
  }),

  captchaChallenge: contract({
    method: 'GET',
    path: '/captcha/challenge/',
    auth: 'public',
    tags: analyticsTags,
    summary: 'The captcha to show: a proof-of-work challenge (ALTCHA format), or the reCAPTCHA site key when Google reCAPTCHA is configured',
    response: {
      200: z.discriminatedUnion('kind', [
        z.object({
          kind: z.literal('altcha'),
          algorithm: z.literal('SHA-256'),
          challenge: z.string(),
          salt: z.string(),
          signature: z.string(),
          maxnumber: z.number(),
        }),
        z.object({ kind: z.literal('recaptcha'), site_key: z.string() }),
      ]),
    },
    errors: [],
  }),
  analyticsSignup: contract({
    method: 'POST',
    path: '/nuitrack-analytics/signup/',
    auth: 'public',
    tags: analyticsTags,
    summary: 'Register for Nuitrack Analytics: answers the next step, fill_info, or exist when the account is there already',
    body: analyticsSignupBody,
    response: { 200: z.object({ step: z.enum(['fill_info', 'exist']), next: z.string() }) },
    errors: ['captcha_invalid', 'captcha_missing', 'captcha_unavailable', 'password_invalid'],
    fieldErrors: { username: 'email_invalid', password: 'password_invalid', captcha_token: 'captcha_missing' },
  }),
  analyticsFillInfo: contract({
    method: 'POST',
    path: '/nuitrack-analytics/fill-info/',
    auth: 'public',
    tags: analyticsTags,
    summary: 'The optional fill-info step: name, company and site of a just-registered account (its credentials prove it)',
    body: analyticsFillInfoBody,
    response: { 200: okSchema.extend({ next: z.string() }) },
    errors: ['invalid_credentials'],
  }),

  health: contract({
    method: 'GET',
    path: '/health/',
    auth: 'public',
    tags: ['health'],
    summary: 'Readiness and which database serves; 503 while the database cannot be reached or the process drains before it stops',
    response: {
      200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }),
      503: z.union([z.object({ status: z.literal('unavailable'), database: z.literal('down') }), z.object({ status: z.literal('draining') })]),
    },
    errors: [],
  }),
  healthLive: contract({
    method: 'GET',
    path: '/health/live/',
    auth: 'public',
    tags: ['health'],
    summary: 'Liveness: the process answers, without asking the database (restart the process only when this fails)',
    response: { 200: z.object({ status: z.literal('ok') }) },
    errors: [],
  }),
  serviceRedirect: contract({
    method: 'GET',
    path: '/service/redirect/',
    auth: 'public',
    tags: ['service'],
    summary:
      'Hand the signed-in client to the helpdesk or a cloud service with a short-lived signed single-sign-on token (`sso`, docs/sso.md) and the license id where relevant; a signed-out visitor signs in first',
    query: z.object({
      service: z.enum(SUPPORT_SERVICES),
      license_id: z.coerce.number().int().positive().optional(),
    }),
    // a 302 to the service, no body
    response: {},
    rawAnswers: { 302: { description: "to the service's address, or to the sign-in (Location)" } },
    errors: [],
  }),

  freshdeskAuthorize: contract({
    method: 'GET',
    path: '/service/freshdesk/authorize/',
    auth: 'public',
    tags: ['service'],
    summary:
      "The helpdesk's custom JWT sign-on (Freshworks, OAuth 2.0 implicit flow, docs/sso.md): a 302 to `redirect_uri?state=…&id_token=…` with an RS256 id_token (sub, email, iat, exp, nonce, given_name, family_name) for the signed-in client; a signed-out visitor signs in first and comes back. Only the configured client_id and redirect_uri are accepted",
    query: z.object({
      client_id: text().min(1).max(200),
      state: text().min(1).max(2000),
      nonce: text().min(1).max(500),
      redirect_uri: text().min(1).max(2000),
      response_type: z.literal('id_token').optional(),
      scope: text().max(200).optional(),
    }),
    // a 302 to the helpdesk or to the sign-in, no body
    response: {},
    rawAnswers: { 302: { description: 'to `redirect_uri?state=…&id_token=…`, or to the sign-in (Location)' } },
    errors: ['sso_client_unknown'],
  }),

  freshdeskPublicKey: contract({
    method: 'GET',
    path: '/service/freshdesk/public-key/',
    auth: 'public',
    tags: ['service'],
    summary: "The RSA public key (SPKI PEM) to register in the helpdesk's custom JWT sign-on settings (docs/sso.md)",
    response: { 200: z.object({ algorithm: z.literal('RS256'), kid: z.string(), public_key: z.string() }) },
    errors: [],
  }),

  ssoPublicKey: contract({
    method: 'GET',
    path: '/service/sso-public-key/',
    auth: 'public',
    tags: ['service'],
    summary: "The Ed25519 public key the services verify the redirect's single-sign-on tokens with (docs/sso.md)",
    response: {
      200: z.object({ algorithm: z.literal('Ed25519'), kid: z.string(), issuer: z.string(), token_seconds: z.number(), public_key: z.string() }),
    },
    errors: [],
  }),

  adminCli: contract({
    method: 'POST',
    path: '/admin/cli/',
    // the loopback address and the token guard it
    auth: 'public',
    tags: ['admin'],
    summary: 'The local CLI hands its command to the running portal (PGlite mode)',
    hide: true,
    body: z.object({ argv: z.array(text().max(500)).max(20) }),
    response: { 200: z.object({ code: z.number(), output: z.string() }) },
    errors: ['forbidden_staff'],
  }),
} as const
