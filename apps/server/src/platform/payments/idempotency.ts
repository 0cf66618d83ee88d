import { randomBytes } from 'node:crypto'
import type { Db, Queryable } from '../../db/db.ts'
import { PaymentUnavailable, type ChargeRequest, type PaymentProvider } from './port.ts'
import { nextGeneration, pinProviderRequest, setProviderRef, settingOrInsert } from './queries.ts'

/**
 * Idempotency keys that cannot collide or drift (migration 0017_idempotency_keys.sql).
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
export const installationKeyPrefix = (db: Queryable): Promise<string> => settingOrInsert(db, PREFIX_SETTING, `p${randomBytes(6).toString('hex')}`)

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
export async function pinCharge(db: Queryable, provider: string, req: ChargeRequest): Promise<{ request: ChargeRequest; generation: number }> {
  const { idempotencyKey, providerRef: _ignored, ...params } = req
  const row = await pinProviderRequest(db, idempotencyKey, provider, params)
  const pinned = (typeof row.request === 'string' ? JSON.parse(row.request) : row.request) as PinnedRequest
  // a key whose earlier generations were spent (a kept 500 with nothing charged) goes under its current one
  const key = row.generation > 0 ? `${idempotencyKey}:g${row.generation}` : idempotencyKey
  return { request: { ...pinned, idempotencyKey: key, ...(row.provider_ref ? { providerRef: row.provider_ref } : {}) }, generation: row.generation }
}

/** Keeps the provider's id of a charge (the first one it answered) for the retries of its key. */
export const recordProviderRef = (db: Queryable, key: string, ref: string): Promise<void> => setProviderRef(db, key, ref)

/**
 * The adapter with its charges pinned: every call sends the parameters its key was first sent with,
 * and the provider's id of a charge that was answered but not settled goes with every retry.
 */
export function withPinnedCharges(provider: PaymentProvider, db: Db): PaymentProvider {
  return {
    ...provider,
    name: provider.name,
    async charge(req) {
      let pinned: Awaited<ReturnType<typeof pinCharge>>
      try {
        pinned = await pinCharge(db, provider.name, req)
      } catch (err) {
        throw new PaymentUnavailable(`the charge cannot be recorded before it is sent: ${(err as Error).message}`, { cause: err })
      }
      try {
        return await provider.charge(pinned.request)
      } catch (err) {
        // an answer that is not final yet (a pending PayPal capture): its order is what a retry reads
        if (err instanceof PaymentUnavailable && err.providerRef) await recordProviderRef(db, req.idempotencyKey, err.providerRef)
        // a key the provider will only ever answer with its kept error, nothing charged: the next try gets a fresh one
        if (err instanceof PaymentUnavailable && err.keySpent) await nextGeneration(db, req.idempotencyKey, pinned.generation)
        throw err
      }
    },
  }
}
