import { randomBytes } from 'node:crypto'
import type { Db, Queryable } from '../../db/db.ts'
import { PaymentUnavailable, type ChargeRequest, type PaymentProvider } from './port.ts'

/**
 * Idempotency keys that cannot collide or drift (migration 0016_idempotency_keys.sql).
 *
 * - Every key an adapter sends starts with this installation's random prefix, kept in the database:
 *   another installation on the same Stripe or PayPal account (or this one after a database reset)
 *   never sends the same key, so it never gets another's answer or an idempotency_error.
 * - A saved-method charge is pinned to the parameters it was first sent with: a retry under the
 *   same key re-sends exactly those (the card, the customer, the amount), whatever the caller holds
 *   now, so a changed card is never charged while the first attempt may have succeeded, and Stripe
 *   never answers idempotency_error.
 */

const PREFIX_SETTING = 'idempotency_key_prefix'

/** The installation's key prefix: made once (the first process to need it wins) and read back ever after. */
export async function installationKeyPrefix(db: Queryable): Promise<string> {
  await db.query('INSERT INTO installation_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    PREFIX_SETTING,
    `p${randomBytes(6).toString('hex')}`,
  ])
  const [row] = await db.query<{ value: string }>('SELECT value FROM installation_settings WHERE name = $1', [PREFIX_SETTING])
  return row!.value
}

/**
 * The prefix as the adapters ask for it: read on every call (one small query beside a provider
 * call), so a database reset under a running process gets a new prefix with its new transactions.
 */
export function keyPrefixOf(db: Queryable): () => Promise<string> {
  return async () => {
    try {
      return await installationKeyPrefix(db)
    } catch (err) {
      throw new PaymentUnavailable(`the idempotency key prefix cannot be read: ${(err as Error).message}`, { cause: err })
    }
  }
}

/** A key as an adapter sends it: the installation's prefix first. */
export const prefixedKey = (prefix: string, key: string) => `${prefix}:${key}`

type PinnedRequest = Omit<ChargeRequest, 'idempotencyKey' | 'providerRef'>

/**
 * The charge as it was first sent under its key (written now when it is the first), with the
 * provider's id of it from an earlier answer.
 */
export async function pinCharge(db: Queryable, provider: string, req: ChargeRequest): Promise<ChargeRequest> {
  const { idempotencyKey, providerRef: _ignored, ...params } = req
  await db.query('INSERT INTO provider_requests (idempotency_key, provider, request) VALUES ($1, $2, $3) ON CONFLICT (idempotency_key) DO NOTHING', [
    idempotencyKey,
    provider,
    JSON.stringify(params),
  ])
  const [row] = await db.query<{ request: PinnedRequest | string; provider_ref: string | null }>(
    'SELECT request, provider_ref FROM provider_requests WHERE idempotency_key = $1',
    [idempotencyKey],
  )
  const pinned = typeof row!.request === 'string' ? (JSON.parse(row!.request) as PinnedRequest) : row!.request
  return { ...pinned, idempotencyKey, ...(row!.provider_ref ? { providerRef: row!.provider_ref } : {}) }
}

/** Keeps the provider's id of a charge (the first one it answered) for the retries of its key. */
export async function recordProviderRef(db: Queryable, key: string, ref: string): Promise<void> {
  await db.query('UPDATE provider_requests SET provider_ref = $2 WHERE idempotency_key = $1 AND provider_ref IS NULL', [key, ref])
}

/**
 * The adapter with its charges pinned: every call sends the parameters its key was first sent with,
 * and the provider's id of a charge that was answered but not settled goes with every retry.
 */
export function withPinnedCharges(provider: PaymentProvider, db: Db): PaymentProvider {
  return {
    ...provider,
    name: provider.name,
    async charge(req) {
      let pinned: ChargeRequest
      try {
        pinned = await pinCharge(db, provider.name, req)
      } catch (err) {
        throw new PaymentUnavailable(`the charge cannot be recorded before it is sent: ${(err as Error).message}`, { cause: err })
      }
      try {
        return await provider.charge(pinned)
      } catch (err) {
        // an answer that is not final yet (a pending PayPal capture): its order is what a retry reads
        if (err instanceof PaymentUnavailable && err.providerRef) await recordProviderRef(db, req.idempotencyKey, err.providerRef)
        throw err
      }
    },
  }
}
