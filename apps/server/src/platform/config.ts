import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { z } from 'zod'
import { masterKeyBytes, masterKeyFromDataDir } from './secrets.ts'

/** proxy-addr's names for address ranges, usable in TRUST_PROXY beside addresses and CIDRs */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

function isAddressOrCidr(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/')
  const version = isIP(address)
  if (!version || rest.length) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
}

/**
 * Whose X-Forwarded-For to believe. Unset: nobody's, the client is the socket's address (so no
 * header can dodge a per-address limit). A number: that many proxy hops in front of the portal.
 * Otherwise the proxies' addresses or CIDRs, comma-separated.
 */
const trustProxySchema = z.string().transform((value, ctx): number | string[] => {
  const text = value.trim()
  if (/^\d+$/.test(text)) {
    const hops = Number(text)
    if (hops <= 20) return hops
  } else {
    const list = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    const bad = list.filter((s) => !PROXY_RANGE_NAMES.has(s) && !isAddressOrCidr(s))
    if (list.length && !bad.length) return list
  }
  ctx.addIssue({ code: 'custom', message: 'must be a hop count (0-20) or a comma-separated list of proxy addresses or CIDRs' })
  return z.NEVER
})

/** Environment, parsed once at start; its type is derived from the schema. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('3DiVi Portal <no-reply@portal.local>'),
  // contact-sales recipients: JSON {"name": "address"}, laid over the default {"sales": DEFAULT_SALES_ADDRESS}
  SALES_RECIPIENTS: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of recipient name to e-mail address' })
        return z.NEVER
      }
    })
    .pipe(
      z.record(z.string(), z.email({ message: 'must be an e-mail address' })).superRefine((map, ctx) => {
        for (const name of Object.keys(map))
          if (!/^[a-z0-9_-]{1,64}$/.test(name))
            ctx.addIssue({ code: 'custom', message: `recipient names are 1 to 64 lowercase letters, digits, - and _: ${name}` })
      }),
    )
    .optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // seals the keys and secrets kept in the database (platform/secrets.ts), the same on every
  // instance; required in production, generated into DATA_DIR/master-key for development and tests
  PORTAL_MASTER_KEY: z
    .string()
    .refine((text) => masterKeyBytes(text) !== null, 'must be 32 random bytes in base64 (openssl rand -base64 32) or 64 hex digits')
    .optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LICENSE_SIGNING_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PKCS#8 PEM private key' }).optional(),
  // the single sign-on into the helpdesk and the cloud services (docs/sso.md): the Ed25519 key that
  // signs the tokens (PKCS#8 PEM; default: one kept in DATA_DIR), and each service's address
  // Google reCAPTCHA instead of the self-hosted captcha when both keys are set (the verify URL: tests point it at a fake)
  RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  RECAPTCHA_VERIFY_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default('https://www.google.com/recaptcha/api/siteverify'),
  SSO_SIGNING_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PKCS#8 PEM private key' }).optional(),
  SUPPORT_SERVICE_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  // the helpdesk's custom JWT sign-on (docs/sso.md): the RSA key that signs its id_token (PKCS#8 PEM;
  // default: one kept in DATA_DIR), and the client id and redirect URI the helpdesk's settings show
  SSO_RSA_SIGNING_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PKCS#8 PEM private key' }).optional(),
  FRESHDESK_SSO_CLIENT_ID: z.string().min(1).max(200).optional(),
  FRESHDESK_SSO_REDIRECT_URI: z.url({ protocol: /^https$/, message: 'must be an https URL' }).optional(),
  FACE_MACHINE_SERVICE_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  NUITRACK_ANALYTICS_SERVICE_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  SDK_RATE_PER_KEY: z.coerce.number().int().positive().default(120),
  SDK_RATE_PER_IP: z.coerce.number().int().positive().default(1200),
  TRUST_PROXY: trustProxySchema.optional(),
  // payments: which adapter serves each source (auto: the real provider when its keys are set, else the sandbox)
  PAYMENTS_CARD_PROVIDER: z.enum(['auto', 'sandbox', 'stripe']).default('auto'),
  PAYMENTS_PAYPAL_PROVIDER: z.enum(['auto', 'sandbox', 'paypal']).default('auto'),
  // the sandbox answers 404 in production unless this is set on purpose (a staging site)
  PAYMENTS_SANDBOX: z.enum(['0', '1']).default('0'),
  // where the sandbox delivers its webhooks (default: the server's own listening address, else PUBLIC_URL)
  PAYMENTS_SANDBOX_WEBHOOK_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  // tests point the Stripe client at a local fake: http://127.0.0.1:PORT
  STRIPE_API_BASE: z.url().optional(),
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  PAYPAL_API_BASE: z.url().default('https://api-m.sandbox.paypal.com'),
  // the id PayPal gave the portal's webhook (developer dashboard): PayPal's verify-webhook-signature call needs it
  PAYPAL_WEBHOOK_ID: z.string().min(1).max(64).optional(),
  // PayPal's account id of the payee: 13 characters of its own base32 (PayPal's payee.merchant_id pattern)
  PAYPAL_MERCHANT_ID: z
    .string()
    .regex(/^[2-9A-HJ-NP-Z]{13}$/, 'must be a PayPal merchant id: 13 upper-case letters and digits (no 0, 1, I or O)')
    .optional(),
  // the seller on invoices, laid over the defaults: {"name", "address", "tax_id", "email"}
  INVOICE_SELLER: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object' })
        return z.NEVER
      }
    })
    .pipe(
      z
        .object({
          name: z.string(),
          address: z.string(),
          tax_id: z.string(),
          email: z.string(),
          // ISO 3166-1 alpha-2: a buyer whose VAT id is of another country gets the reverse-charge note
          country: z.string().regex(/^[A-Z]{2}$/, 'country must be an ISO 3166-1 alpha-2 code such as US'),
        })
        .partial()
        .strict(),
    )
    .optional(),
  // argon2id's cost for new password hashes: `test` is for test suites only (a production start refuses it)
  PASSWORD_HASH_COST: z.enum(['standard', 'test']).default('standard'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // GET /metrics (Prometheus) answers only a request bearing this token; unset, it is not served
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // on SIGTERM: how long /api/health/ answers 503 before the listener closes (a load balancer's
  // health-check interval), then how long requests and jobs in flight may take to finish
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(0),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  // documentation and community addresses of /external_resource/link/{name}/, laid over the defaults
  EXTERNAL_LINKS: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of link name to URL' })
        return z.NEVER
      }
    })
    .pipe(
      z.record(
        z.string().regex(/^[a-z0-9_]{1,64}$/, 'link names are lowercase letters, digits and _'),
        z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }),
      ),
    )
    .optional(),
})

export type Env = z.infer<typeof envSchema>

/** Where a contact-sales message to "sales" goes unless SALES_RECIPIENTS says otherwise. */
export const DEFAULT_SALES_ADDRESS = 'sales@portal.local'

export interface Config extends Omit<Env, 'PUBLIC_URL' | 'SALES_RECIPIENTS' | 'PORTAL_MASTER_KEY'> {
  /** the key that seals what the database keeps secret: the environment's, else (not in production) DATA_DIR's */
  PORTAL_MASTER_KEY: string
  PUBLIC_URL: string
  /** contact-sales recipient name → address; always has "sales" */
  SALES_RECIPIENTS: Readonly<Record<string, string>>
  databaseKind: 'pglite' | 'postgres'
}

export class ConfigError extends Error {
  readonly problems: string[]

  constructor(problems: string[]) {
    super(problems.join('\n'))
    this.problems = problems
  }
}

/**
 * Fastify's trustProxy for the setting. A hop count becomes a function because Fastify itself
 * refuses plain hop counts (a client that reaches the portal directly could claim any address);
 * the README says to use one only when the portal is reachable through its proxies alone.
 */
export function trustProxyOption(setting: Config['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === undefined || setting === 0) return false
  if (typeof setting === 'number') return (_address, hop) => hop < setting
  return setting
}

/** Empty strings count as unset, so `FOO= npm start` behaves like no FOO. */
function clean(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(clean(env))
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`))
  }
  const e = parsed.data
  // an invoice with the placeholder seller is a document nobody may issue: a production start needs
  // every field (a staging site that takes no real money, PAYMENTS_SANDBOX=1, may go without)
  if (e.NODE_ENV === 'production' && e.PAYMENTS_SANDBOX !== '1') {
    const missing = SELLER_FIELDS.filter((f) => !e.INVOICE_SELLER?.[f]?.trim())
    if (missing.length > 0) {
      throw new ConfigError([`INVOICE_SELLER: ${missing.join(', ')} must be set in production (the seller printed on every invoice)`])
    }
  }
  if (e.NODE_ENV === 'production' && e.PASSWORD_HASH_COST !== 'standard') {
    throw new ConfigError(['PASSWORD_HASH_COST: must be standard in production (the test cost makes passwords cheap to guess)'])
  }
  if (e.NODE_ENV === 'production' && !e.PORTAL_MASTER_KEY) {
    throw new ConfigError([
      'PORTAL_MASTER_KEY: must be set in production, the same on every instance (it seals the signing keys and secrets kept in the database; make one with openssl rand -base64 32)',
    ])
  }
  const dataDir = resolve(e.DATA_DIR)
  return {
    ...e,
    DATA_DIR: dataDir,
    PORTAL_MASTER_KEY: e.PORTAL_MASTER_KEY ?? masterKeyFromDataDir(dataDir),
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    SALES_RECIPIENTS: { sales: DEFAULT_SALES_ADDRESS, ...e.SALES_RECIPIENTS },
    databaseKind: e.DATABASE_URL ? 'postgres' : 'pglite',
  }
}

const SELLER_FIELDS = ['name', 'address', 'tax_id', 'email'] as const

/**
 * What a production start is missing that docs/deploy.md asks for: each a sentence the start logs
 * as a warning and prints. None stops the start (a staging site may lack some on purpose), but each
 * means something customers would meet: mail that reaches nobody, invoices with placeholder seller
 * details, cookies without Secure, limits shared by everyone behind the proxy.
 */
export function productionWarnings(config: Config): string[] {
  if (config.NODE_ENV !== 'production') return []
  const warnings: string[] = []
  if (config.databaseKind === 'pglite') warnings.push('DATABASE_URL is not set: the embedded PGlite serves one process only, and no backup tool knows it')
  if (!config.PUBLIC_URL.startsWith('https://')) warnings.push(`PUBLIC_URL is not https (${config.PUBLIC_URL}): cookies are not Secure and there is no HSTS`)
  if (!config.SMTP_URL) warnings.push('SMTP_URL is not set: mail stays in the outbox and reaches no customer')
  const seller = config.INVOICE_SELLER ?? {}
  const missing = SELLER_FIELDS.filter((f) => !seller[f]?.trim())
  if (missing.length > 0) warnings.push(`INVOICE_SELLER lacks ${missing.join(', ')}: invoices print placeholders there`)
  if (config.TRUST_PROXY === undefined) {
    warnings.push('TRUST_PROXY is not set: behind a load balancer every request seems to come from it, and its per-address limits are shared by all')
  }
  return warnings
}
