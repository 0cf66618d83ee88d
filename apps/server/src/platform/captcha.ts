import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto'
import type { CaptchaChallenge } from '@portal/domain'
import type { Queryable } from '../db/db.ts'
import { safeEqual } from './crypto.ts'
import { AppError } from './errors.ts'
import { spendCaptcha } from './queries.ts'

/**
 * A self-hosted proof-of-work captcha in ALTCHA's format: the browser searches for the number whose
 * SHA-256 with the salt gives the challenge; the server signed the challenge, so it keeps no state
 * until a solution is used (then once only). No third party sees the visitor.
 */
const MAX_NUMBER = 50_000
export const CAPTCHA_LIFETIME_MS = 10 * 60_000

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export function createChallenge(secret: string, now = Date.now()): CaptchaChallenge {
  const salt = `${randomBytes(12).toString('hex')}?expires=${Math.floor((now + CAPTCHA_LIFETIME_MS) / 1000)}`
  const challenge = sha256(salt + randomInt(0, MAX_NUMBER))
  return { algorithm: 'SHA-256', challenge, salt, signature: createHmac('sha256', secret).update(challenge).digest('hex'), maxnumber: MAX_NUMBER }
}

/** Solves a challenge (what the browser does; the tests use it too). */
export function solveChallenge(c: Pick<CaptchaChallenge, 'challenge' | 'salt' | 'maxnumber'>): number | null {
  for (let n = 0; n <= c.maxnumber; n++) if (sha256(c.salt + n) === c.challenge) return n
  return null
}

/** Checks a base64 ALTCHA payload and spends it; refusals are the spec's captcha codes. */
export async function verifyCaptcha(db: Queryable, secret: string, token: string, now = Date.now()) {
  let p: { algorithm?: string; challenge?: string; number?: number; salt?: string; signature?: string }
  try {
    p = JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
  } catch {
    throw new AppError('captcha_invalid', undefined, 'captcha_token')
  }
  if (
    p.algorithm !== 'SHA-256' ||
    typeof p.challenge !== 'string' ||
    typeof p.salt !== 'string' ||
    typeof p.signature !== 'string' ||
    typeof p.number !== 'number'
  ) {
    throw new AppError('captcha_invalid', undefined, 'captcha_token')
  }
  const expires = Number(/[?&]expires=(\d+)/.exec(p.salt)?.[1] ?? 0) * 1000
  if (expires < now) throw new AppError('captcha_missing', undefined, 'captcha_token')
  const signature = createHmac('sha256', secret).update(p.challenge).digest('hex')
  if (!safeEqual(signature, p.signature) || sha256(p.salt + p.number) !== p.challenge) throw new AppError('captcha_invalid', undefined, 'captcha_token')
  if (!(await spendCaptcha(db, p.challenge))) throw new AppError('captcha_invalid', 'This captcha was already used. Please solve it again', 'captcha_token')
}
