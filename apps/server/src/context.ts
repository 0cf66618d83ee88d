import type { FastifyBaseLogger } from 'fastify'
import type { Db } from './db/db.ts'
import type { Config } from './platform/config.ts'
import type { JobQueue } from './platform/jobs.ts'
import type { Mailer } from './platform/mailer.ts'
import type { Keyring } from './platform/signing.ts'

/** What services are handed: the database, the outside-world ports and the parsed config. */
export interface AppContext {
  db: Db
  mailer: Mailer
  /** background and scheduled work, shared by every server process */
  jobs: JobQueue
  config: Config
  log: FastifyBaseLogger
  keyring: Keyring
}

/** Limits on calls that cost us (sign-in guessing, sign-ups, e-mails sent). */
export const RATE_LIMITS = {
  signinPerIp: { max: 30, windowSeconds: 900 },
  signinPerEmail: { max: 10, windowSeconds: 900 },
  signupPerIp: { max: 20, windowSeconds: 3600 },
  mailPerAddress: { max: 5, windowSeconds: 900 },
  mailPerIp: { max: 30, windowSeconds: 3600 },
} as const
