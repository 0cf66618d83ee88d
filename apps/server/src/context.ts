import type { Db } from './db/db.ts'
import type { Fulfilments } from './modules/billing/service.ts'
import type { Clock } from './platform/clock.ts'
import type { Config } from './platform/config.ts'
import type { JobQueue } from './platform/jobs.ts'
import type { Mailer } from './platform/mailer.ts'
import type { PaymentProviders } from './platform/payments/registry.ts'
import type { Keyring } from './platform/signing.ts'
import type { PortalSecrets } from './platform/secrets.ts'

/** The log a service may write to: Fastify's pino logger fits, so does a job's or the CLI's. */
export interface Logger {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/** What services are handed: the database, the outside-world ports and the parsed config. */
export interface AppContext {
  db: Db
  mailer: Mailer
  /** background and scheduled work, shared by every server process */
  jobs: JobQueue
  config: Config
  /** the secrets every instance shares (platform/secrets.ts): the configured ones, else the database's */
  secrets: PortalSecrets
  log: Logger
  keyring: Keyring
  /** the payment adapter serving each source (platform/payments) */
  payments: PaymentProviders
  /** business time: periods, renewals, holds, trials (platform/clock.ts); tests move it */
  clock: Clock
  /** what a paid transaction of each kind delivers (modules/billing), each purchase kind's own */
  fulfilments: Fulfilments
}

/**
 * Limits on calls that cost us (sign-in guessing, sign-ups, e-mails sent). Sign-in counts failed
 * tries per e-mail from one address (10), per e-mail from everywhere (100) and per address (100),
 * so a stranger's wrong passwords lock out the stranger's address from that e-mail, not the owner
 * signing in from elsewhere nor the colleagues behind the same address (OWASP: no hard lockout by
 * account alone). Every try, right or wrong, counts against the address under a ceiling high
 * enough for a company's network behind one address.
 */
export const RATE_LIMITS = {
  signinPerIp: { max: 1000, windowSeconds: 900 },
  signinFailuresPerEmailAndIp: { max: 10, windowSeconds: 900 },
  signinFailuresPerEmail: { max: 100, windowSeconds: 900 },
  signinFailuresPerIp: { max: 100, windowSeconds: 900 },
  signupPerIp: { max: 20, windowSeconds: 3600 },
  mailPerAddress: { max: 5, windowSeconds: 900 },
  mailPerIp: { max: 30, windowSeconds: 3600 },
  // promo codes: enough for a customer trying a few, too few to guess codes by the thousand
  promoValidatePerClient: { max: 30, windowSeconds: 900 },
  // contact sales: per sender address and per client, so one customer cannot flood sales' inbox
  salesPerSender: { max: 5, windowSeconds: 3600 },
  salesPerIp: { max: 20, windowSeconds: 3600 },
  // each top-up opens a checkout at the payment provider
  refillPerClient: { max: 30, windowSeconds: 3600 },
  // the feedback widget: a customer may change their mind, not fill the table
  feedbackPerClient: { max: 10, windowSeconds: 3600 },
} as const
