import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

/**
 * argon2id's cost: OWASP's baseline (19 MiB, 2 iterations, 1 lane) unless the configuration says
 * `test` (PASSWORD_HASH_COST, refused in production), the smallest cost argon2 accepts, for test
 * suites that create and sign in thousands of accounts. A hash records its own cost, so verifying
 * needs no setting.
 */
const ARGON = {
  standard: { algorithm: 2 as const /* Algorithm.Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 },
  test: { algorithm: 2 as const, memoryCost: 8, timeCost: 1, parallelism: 1 },
}

export type PasswordHashCost = keyof typeof ARGON

export const hashPassword = (password: string, cost: PasswordHashCost = 'standard') => hash(password, ARGON[cost])
export const verifyPassword = (stored: string, password: string) => verify(stored, password).catch(() => false)

/** Opaque tokens travel to the browser or mailbox; only their hash is stored. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')
/** `length` characters drawn uniformly from `alphabet` (randomInt rejects the biased draws). */
export function randomString(alphabet: string, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export const ACTIVATION_KEY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** XXXX-XXXX-XXXX-XXXX from an unambiguous alphabet, every character equally likely: what a customer types into an SDK. */
export function activationKey(): string {
  return randomString(ACTIVATION_KEY_ALPHABET, 16).match(/.{4}/g)!.join('-')
}
