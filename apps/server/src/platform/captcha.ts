import { createHash } from 'node:crypto'
import { createChallenge as altchaChallenge, extractParams, verifySolution } from 'altcha-lib/v1'
import type { CaptchaChallenge } from '@portal/domain'
import type { Queryable } from '../db/db.ts'
import { AppError } from './errors.ts'
import { spendCaptcha } from './queries.ts'

/**
 * The captcha port (DESIGN: self-hosted proof of work by default, reCAPTCHA by configuration). The
 * browser asks GET /captcha/challenge/ which kind to show; the server verifies the token here.
 * Refusals are the spec's codes: 824d29c0 empty or expired, 1fb53c53 invalid (or used before), and
 * captcha_unavailable (503) when Google cannot be asked: nothing is decided without an answer.
 */
export interface Captcha {
  readonly kind: 'altcha' | 'recaptcha'
  /** what the browser needs to show it */
  challenge(now?: number): Promise<ChallengeAnswer>
  verify(db: Queryable, token: string, remoteIp: string, now?: number): Promise<void>
}

export type ChallengeAnswer = ({ kind: 'altcha' } & CaptchaChallenge) | { kind: 'recaptcha'; site_key: string }

const MAX_NUMBER = 50_000
export const CAPTCHA_LIFETIME_MS = 10 * 60_000
const FIELD = 'captcha_token'
const invalid = (message?: string) => new AppError('captcha_invalid', message, FIELD)

/**
 * An ALTCHA challenge, signed with `secret`, expiring CAPTCHA_LIFETIME_MS after `now`. It is the
 * library's v1 protocol (`altcha-lib/v1`, SHA-256 over salt and number), the format the browser's
 * solver speaks; moving to v2 (key derivation) changes the challenge, so both sides move together.
 */
export async function createChallenge(secret: string, now = Date.now()): Promise<CaptchaChallenge> {
  const c = await altchaChallenge({ hmacKey: secret, maxNumber: MAX_NUMBER, expires: new Date(now + CAPTCHA_LIFETIME_MS) })
  return { algorithm: 'SHA-256', challenge: c.challenge, salt: c.salt, signature: c.signature, maxnumber: c.maxnumber ?? MAX_NUMBER }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
/** Solves a challenge (what the browser does; the tests use it too). */
export function solveChallenge(c: Pick<CaptchaChallenge, 'challenge' | 'salt' | 'maxnumber'>): number | null {
  for (let n = 0; n <= c.maxnumber; n++) if (sha256(c.salt + n) === c.challenge) return n
  return null
}

/** The self-hosted proof-of-work captcha: the challenge is signed, so nothing is kept until a solution is spent (once). */
export function altchaCaptcha(secret: string): Captcha {
  return {
    kind: 'altcha',
    challenge: async (now) => ({ kind: 'altcha', ...(await createChallenge(secret, now)) }),
    async verify(db, token, _remoteIp, now = Date.now()) {
      if (!token) throw new AppError('captcha_missing', undefined, FIELD)
      let payload: { challenge?: unknown; salt?: unknown }
      try {
        payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
      } catch {
        throw invalid()
      }
      if (typeof payload?.challenge !== 'string' || typeof payload.salt !== 'string') throw invalid()
      const expires = Number(extractParams(payload as never).expires ?? 0) * 1000
      if (expires < now) throw new AppError('captcha_missing', undefined, FIELD)
      // expiry is ours above (against `now`); the library checks the signature and the work
      if (!(await verifySolution(payload as never, secret, false).catch(() => false))) throw invalid()
      if (!(await spendCaptcha(db, payload.challenge))) throw invalid('This captcha was already used. Please solve it again')
    },
  }
}

/** Google reCAPTCHA (v2 checkbox): the token is checked with Google's siteverify; each token is good once at Google. */
export function recaptchaCaptcha(opts: { siteKey: string; secret: string; verifyUrl: string; fetch?: typeof fetch; timeoutMs?: number }): Captcha {
  const doFetch = opts.fetch ?? fetch
  return {
    kind: 'recaptcha',
    challenge: async () => ({ kind: 'recaptcha', site_key: opts.siteKey }),
    async verify(_db, token, remoteIp) {
      if (!token) throw new AppError('captcha_missing', undefined, FIELD)
      let answer: { success?: unknown; 'error-codes'?: unknown }
      try {
        const res = await doFetch(opts.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: opts.secret, response: token, remoteip: remoteIp }).toString(),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
        })
        if (!res.ok) throw new Error(`siteverify answered ${res.status}`)
        answer = (await res.json()) as typeof answer
      } catch {
        throw new AppError('captcha_unavailable', undefined, FIELD)
      }
      if (answer.success === true) return
      const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'] : []
      if (codes.includes('timeout-or-duplicate')) throw new AppError('captcha_missing', undefined, FIELD)
      throw invalid()
    },
  }
}

/** reCAPTCHA when both its keys are configured, else the self-hosted captcha, keyed by `secret`. */
export function createCaptcha(
  config: { RECAPTCHA_SITE_KEY?: string; RECAPTCHA_SECRET?: string; RECAPTCHA_VERIFY_URL: string },
  /** the self-hosted captcha's key: the session secret every instance shares (platform/secrets.ts) */
  secret: string,
): Captcha {
  return config.RECAPTCHA_SITE_KEY && config.RECAPTCHA_SECRET
    ? recaptchaCaptcha({ siteKey: config.RECAPTCHA_SITE_KEY, secret: config.RECAPTCHA_SECRET, verifyUrl: config.RECAPTCHA_VERIFY_URL })
    : altchaCaptcha(secret)
}
