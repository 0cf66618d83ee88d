import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import cookie from '@fastify/cookie'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { MovableClock, type Clock } from './platform/clock.ts'
import type { AppContext } from './context.ts'
import type { Db } from './db/db.ts'
import { trustProxyOption, type Config } from './platform/config.ts'
import { frameworkErrors, installErrorHandler } from './platform/error-handler.ts'
import { createMailer, type Mailer } from './platform/mailer.ts'
import { createJobQueue, queueMetrics } from './platform/jobs.ts'
import { createMetrics, installMetrics } from './platform/metrics.ts'
import { createLifecycle } from './platform/lifecycle.ts'
import { scheduleHousekeeping } from './platform/housekeeping.ts'
import { sessionPlugin } from './platform/session.ts'
import { securityHeaders } from './platform/security-headers.ts'
import { readIndexHtml, responseCompression, webApp } from './platform/web-app.ts'
import { z } from 'zod'
import { STAFF_FORM_PATHS, contracts, errorSchema, type Contract } from '@portal/domain'
import { PORTAL_RELEASE } from './platform/version.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { accountRoutes } from './modules/account/routes.ts'
import { catalogueRoutes } from './modules/catalogue/routes.ts'
import { changelogRoutes } from './modules/changelog/routes.ts'
import { healthRoutes } from './modules/health/routes.ts'
import { serviceRedirectRoutes } from './modules/support/redirect.ts'
import { createRsaSigner, createSsoSigner } from './platform/sso.ts'
import { devMailRoutes } from './modules/devmail/routes.ts'
import { adminCliRoutes } from './modules/admin/routes.ts'
import { licenseRoutes } from './modules/licenses/routes.ts'
import { activityRoutes } from './modules/activity/routes.ts'
import { fleetRoutes } from './modules/fleet/routes.ts'
import { groupRoutes } from './modules/groups/routes.ts'
import { staffRoutes } from './modules/staff/routes.ts'
import { basketRoutes } from './modules/basket/routes.ts'
import { activationRoutes } from './modules/activation/routes.ts'
import { analyticsRoutes } from './modules/analytics/routes.ts'
import { promoRoutes } from './modules/promo/routes.ts'
import { feedbackRoutes } from './modules/feedback/routes.ts'
import { orgRoutes } from './modules/orgs/routes.ts'
import { supportRoutes } from './modules/support/routes.ts'
import { upgradeRoutes } from './modules/upgrades/routes.ts'
import { cloudRoutes } from './modules/cloud/routes.ts'
import { scheduleErasureSweep } from './modules/cloud/erasure.ts'
import { upgradeFulfilments } from './modules/upgrades/service.ts'
import type { Fulfilments } from './modules/billing/service.ts'
import { balanceFulfilments } from './modules/balance/service.ts'
import { basketFulfilments } from './modules/basket/service.ts'
import { KEYRING_REFRESH_MS, dbKeyring, type Keyring } from './platform/signing.ts'
import { loadSecrets, masterKeyOf, type PortalSecrets } from './platform/secrets.ts'
import { sandboxAllowed, selectPaymentProviders, type PaymentAdapters } from './platform/payments/registry.ts'
import { createSandboxProvider, registerSandboxDelivery, sandboxWebhooks } from './modules/payments/sandbox.ts'
import { sandboxApiRoutes, sandboxPageRoutes } from './modules/payments/routes.ts'
import { schedulePaymentExpiry } from './modules/payments/expiry.ts'
import { schedulePaymentReconcile } from './modules/payments/reconcile.ts'
import { balanceRoutes } from './modules/balance/routes.ts'
import { createStripeProvider } from './platform/payments/stripe.ts'
import { createPaypalProvider } from './platform/payments/paypal.ts'
import { keyPrefixOf, withPinnedCharges } from './platform/payments/idempotency.ts'
import { providerRoutes } from './modules/payments/provider-routes.ts'
import { linkRoutes } from './modules/links/routes.ts'
import { transactionRoutes } from './modules/transactions/routes.ts'
import { registerReceiptJob } from './modules/transactions/receipt.ts'
import { tokenRoutes } from './modules/tokens/routes.ts'
import { webhookRoutes } from './modules/webhooks/routes.ts'
import { registerWebhookDelivery } from './modules/webhooks/service.ts'
import { paymentMetrics, recordCurrentSeller } from './modules/transactions/service.ts'
import { scheduleReservationRelease } from './modules/promo/service.ts'
import { externalLinks } from './modules/links/links.ts'
import { scheduleRenewals, subscriptionFulfilments } from './modules/subscriptions/renewal.ts'
import { subscriptionRoutes } from './modules/subscriptions/routes.ts'
import { subscriptionMetrics } from './modules/subscriptions/service.ts'

export interface BuildOptions {
  config: Config
  db: Db
  /** where the built web app lives; defaults to apps/web/dist */
  webDist?: string
  /** token the CLI presents to run commands inside this process (PGlite mode) */
  adminToken?: string
  /** run the job queue's poll loop (default); the shared test app leaves it off so tests stay deterministic */
  runJobs?: boolean
  /** business time (platform/clock.ts): the wall clock unless a test passes one it moves */
  clock?: Clock
  /** how often the license keyring is read again from the database (KEYRING_REFRESH_MS; 0: never) */
  keyringRefreshMs?: number
  /**
   * the shared secrets and keyring, read already: a start reads them from `db` (which it cannot
   * without the database); a test of a database out of reach hands in those of a reachable one
   */
  shared?: { secrets: PortalSecrets; keyring: Keyring }
}

const DEFAULT_WEB_DIST = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist')

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
    mailer: Mailer
  }
}

type OpenApiDoc = { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> }

/** The document with each contract's `rawAnswers`: a redirect with its Location, a file with its media type. */
function withRawAnswers<D>(doc: D): D {
  const paths = (doc as OpenApiDoc).paths ?? {}
  for (const c of Object.values(contracts as Record<string, Contract>)) {
    const op = paths[`/api${c.path.replace(/:(\w+)/g, '{$1}')}`]?.[c.method.toLowerCase()]
    if (!op || !c.rawAnswers) continue
    addRawAnswers(op, c.rawAnswers)
  }
  // the named external links are no API call, but the document lists them: a redirect, or not found
  const link = paths['/external_resource/link/{name}/']?.get
  if (link) {
    addRawAnswers(link, { 302: { description: 'to the configured address (Location)' } })
    link.responses = {
      ...link.responses,
      404: {
        description: "an unknown name: the error, or the app's not-found page for a browser",
        content: { 'application/json': { schema: z.toJSONSchema(errorSchema, { target: 'openapi-3.0' }) }, 'text/html': { schema: { type: 'string' } } },
      },
    }
  }
  return doc
}

function addRawAnswers(op: { responses?: Record<string, unknown> }, rawAnswers: NonNullable<Contract['rawAnswers']>) {
  for (const [status, answer] of Object.entries(rawAnswers)) {
    op.responses = {
      ...op.responses,
      [status]: answer.mediaType
        ? { description: answer.description, content: { [answer.mediaType]: { schema: { type: 'string', format: 'binary' } } } }
        : { description: answer.description, headers: { Location: { schema: { type: 'string' } } } },
    }
  }
}

/** http://host:port of a listening socket, a wildcard address taken as loopback. */
function ownHttpAddress(address: string | AddressInfo | null): string | null {
  if (!address || typeof address === 'string') return null
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
}

/** The one way to build the app: the server and the tests both call this. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, db } = opts
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: 'x-request-id',
    // X-Forwarded-For counts only from the configured proxies: it names the client for every per-address limit
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 2 * 1024 * 1024,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  db.setLogger(app.log)
  // the built app (platform/web-app.ts); the not-found handler serves its index.html to browsers
  const webDist = opts.webDist ?? DEFAULT_WEB_DIST
  const spaIndex = readIndexHtml(webDist)
  installErrorHandler(app, { notFoundPage: () => spaIndex })

  // the keys and secrets every instance shares, from the database (platform/secrets.ts); a wrong
  // PORTAL_MASTER_KEY stops the start here with one line (MasterKeyMismatch)
  const secrets: PortalSecrets = opts.shared?.secrets ?? (await loadSecrets(db, config, app.log))
  const keyring =
    opts.shared?.keyring ??
    (await dbKeyring({
      db,
      masterKey: masterKeyOf(config),
      pinnedPem: config.LICENSE_SIGNING_KEY,
      dataDir: config.DATA_DIR,
      refreshMs: opts.keyringRefreshMs ?? KEYRING_REFRESH_MS,
      log: app.log,
    }))
  const jobs = createJobQueue({ db, log: app.log })
  const mailer = createMailer({ db, jobs, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log })
  scheduleHousekeeping(jobs, db, app.log)
  // the adapters each source may use; the registry picks per source from the configuration
  const adapters: PaymentAdapters = {}
  // every idempotency key carries this installation's prefix, and a charge is pinned to what it was first sent with
  const keyPrefix = keyPrefixOf(db)
  if (config.STRIPE_SECRET_KEY) adapters.stripe = withPinnedCharges(createStripeProvider(config, { keyPrefix }), db)
  if (config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET) adapters.paypal = withPinnedCharges(createPaypalProvider(config, { keyPrefix }), db)
  // the sandbox exists only where it is allowed (never in production unless PAYMENTS_SANDBOX=1)
  let ownAddress: string | null = null
  const sandbox = sandboxAllowed(config)
    ? createSandboxProvider({ db, config, webhooks: sandboxWebhooks(config, secrets.sandboxWebhookSecret, () => ownAddress) })
    : undefined
  adapters.sandbox = sandbox
  const payments = selectPaymentProviders(config, adapters)
  // what a paid transaction of each kind delivers: a top-up its credit, a basket order its licenses,
  // a renewal or reactivation its new period, an upgrade its license or group upgraded (modules/billing)
  const fulfilments: Fulfilments = new Map(Object.entries({ ...balanceFulfilments, ...basketFulfilments, ...subscriptionFulfilments, ...upgradeFulfilments }))
  const ctx: AppContext = { db, mailer, jobs, config, secrets, log: app.log, keyring, payments, clock: opts.clock ?? new MovableClock(), fulfilments }
  if (sandbox) registerSandboxDelivery(jobs, db, sandbox.webhooks)
  schedulePaymentExpiry(jobs, ctx)
  // pending and recently expired payments read back from their provider (modules/payments/reconcile.ts)
  schedulePaymentReconcile(jobs, ctx)
  // the sandbox delivers its webhooks to this process's own listening address (no proxy hop)
  app.addHook('onListen', async () => {
    ownAddress = ownHttpAddress(app.server.address())
  })
  app.decorate('ctx', ctx)
  app.decorate('mailer', mailer)
  // a SIGTERM drains the process (platform/lifecycle.ts): clients are told to take their next request elsewhere
  const lifecycle = createLifecycle()
  app.decorate('lifecycle', lifecycle)
  app.addHook('onRequest', async (_req, reply) => {
    if (lifecycle.draining) reply.header('connection', 'close')
  })
  // the receipt of each completed payment (enqueued by modules/billing)
  registerReceiptJob(ctx)
  // the account's webhook deliveries, written by emitWebhookEvent in the transaction of each event
  registerWebhookDelivery(jobs, ctx)
  // invoices issued from now on print the seller as configured for this start
  await recordCurrentSeller(ctx).catch((err: unknown) =>
    app.log.warn({ err }, 'the invoice seller could not be recorded: invoices keep the one recorded before'),
  )
  // renewals at each period's end, and the expiring-soon mails (modules/subscriptions)
  scheduleRenewals(ctx)
  // promo activations held by checkouts left open for an hour go back to their codes
  scheduleReservationRelease(ctx)
  // paused cloud trials: the warning, then the erasure of their workspace data
  scheduleErasureSweep(jobs, ctx)
  if (opts.runJobs !== false) app.addHook('onReady', async () => jobs.start())
  app.addHook('onClose', async () => {
    await keyring.close()
    await jobs.stop()
    await mailer.stop()
  })

  // Prometheus metrics: every answer counted and timed, and the shared figures read at scrape time (GET /metrics with METRICS_TOKEN)
  installMetrics(app, createMetrics(db, [...queueMetrics, ...paymentMetrics, ...subscriptionMetrics]), config.METRICS_TOKEN)

  await app.register(securityHeaders, { https: config.PUBLIC_URL.startsWith('https://') })
  // before any route: the plugin hooks each route as it is added
  await app.register(responseCompression)
  await app.register(cookie, { secret: secrets.sessionSecret })
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: '3DiVi license portal API',
        version: PORTAL_RELEASE,
        description:
          "Errors are `{error_code, error}`, with `field` for a refused field. With the session cookie, POSTs need the X-CSRFToken header echoing the csrftoken cookie. The calls listing `bearer` also take a customer API token (`Authorization: Bearer lp_…`, made on the account page) without CSRF; a `read` token makes GET calls only, and a token acts with its creator's role in the organisation. A method a path is not served with answers 405 with `Allow`. Every rule a field keeps is in its schema (lengths, ranges, patterns, enums); a rule against stored data or between fields is in its description.",
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
          csrf: { type: 'apiKey', in: 'header', name: 'X-CSRFToken' },
          bearer: { type: 'http', scheme: 'bearer', description: 'A customer API token (lp_…) of scope read (GET only) or manage' },
        },
      },
    },
    transform: jsonSchemaTransform,
    // the answers that are no JSON (redirects, files) are declared too, from each call's contract
    transformObject: (documentObject) => withRawAnswers('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject),
  })
  // the docs page runs under the portal's CSP: no inline scripts, and no badge from an outside validator
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } })
  await app.register(sessionPlugin, {
    db,
    secure: config.PUBLIC_URL.startsWith('https://'),
    // API tokens share the device API's limits: per token as per key, and per address
    bearerLimits: { perKey: config.SDK_RATE_PER_KEY, perIp: config.SDK_RATE_PER_IP },
  })

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { ctx, lifecycle })
      await api.register(serviceRedirectRoutes, {
        ctx,
        sso: createSsoSigner({ pem: secrets.ssoKeyPem, publicUrl: config.PUBLIC_URL }),
        rsa: createRsaSigner({ pem: secrets.rsaKeyPem, publicUrl: config.PUBLIC_URL }),
      })
      await api.register(authRoutes, { ctx })
      await api.register(accountRoutes, { ctx })
      await api.register(catalogueRoutes, { ctx })
      await api.register(changelogRoutes, { ctx })
      await api.register(licenseRoutes, { ctx })
      await api.register(activityRoutes, { ctx })
      await api.register(fleetRoutes, { ctx })
      await api.register(subscriptionRoutes, { ctx })
      await api.register(groupRoutes, { ctx })
      await api.register(staffRoutes, { ctx })
      await api.register(basketRoutes, { ctx })
      await api.register(analyticsRoutes, { ctx })
      await api.register(promoRoutes, { ctx })
      await api.register(supportRoutes, { ctx })
      await api.register(upgradeRoutes, { ctx })
      await api.register(cloudRoutes, { ctx })
      await api.register(feedbackRoutes, { ctx })
      await api.register(tokenRoutes, { ctx })
      await api.register(webhookRoutes, { ctx })
      await api.register(orgRoutes, { ctx })
      await api.register(balanceRoutes, { ctx })
      if (sandbox) await api.register(sandboxApiRoutes, { ctx, sandbox })
      await api.register(providerRoutes, { ctx })
      await api.register(transactionRoutes, { ctx })
      await api.register(activationRoutes, { ctx, sdkLimits: { perKey: config.SDK_RATE_PER_KEY, perIp: config.SDK_RATE_PER_IP } })
      if (opts.adminToken) await api.register(adminCliRoutes, { ctx, token: opts.adminToken })
      api.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger())
    },
    { prefix: '/api' },
  )

  if (config.NODE_ENV !== 'production') await app.register(devMailRoutes, { ctx })
  if (sandbox) await app.register(sandboxPageRoutes, { ctx })

  await app.register(webApp, { root: webDist })
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/app/nuitrack/', 302))
  // the marketing site's old address of the custom Face SDK form
  app.get('/marketing/face_sdk_custom/create/', { schema: { hide: true } }, async (_req, reply) => reply.redirect(STAFF_FORM_PATHS.perpetual, 302))
  await app.register(linkRoutes, { links: externalLinks(config.EXTERNAL_LINKS) })

  return app
}
