import { PLATFORMS, formatDiscount, parseDiscount, platformOfProduct, promoAppliesTo, type Platform, type PromoValidateAnswer } from '@portal/domain'
import { RATE_LIMITS, type AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { fail } from '../../platform/errors.ts'
import { hit } from '../../platform/rate-limit.ts'
import {
  confirmReservation,
  confirmReservationsOfTransaction,
  disablePromo,
  findPromo,
  insertPromo,
  insertReservation,
  linkReservation,
  listPromos,
  lockPromo,
  releaseClientReservations,
  releaseReservation,
  releaseReservationsOfTransaction,
  releaseStaleReservations,
  takeActivation,
  type PromoRow,
  type PromoState,
} from './queries.ts'

/**
 * Why a code cannot be used for a platform now, as its catalogue error (spec section 8: it does
 * not exist, has expired, is not for the platform, or has no activation left), or null. A disabled
 * code answers as one that does not exist.
 */
function refusal(promo: PromoState | null, platform: Platform) {
  if (!promo || promo.disabled) return 'promo_not_found' as const
  if (promo.expired) return 'promo_expired' as const
  if (!promoAppliesTo(promo.platforms, platform)) return 'promo_wrong_platform' as const
  if (promo.max_activations !== null && promo.activations_used >= promo.max_activations) return 'promo_used_up' as const
  return null
}

/** POST /promocode/validate/: the code and its discount, or why it cannot be used for the product. */
export async function validatePromo(ctx: AppContext, clientId: number, body: { promocode: string; product: string }): Promise<PromoValidateAnswer> {
  // every try counts, found or not: a customer tries a few codes, a script guessing codes is stopped
  await hit(ctx.db, [{ key: `promo:client:${clientId}`, ...RATE_LIMITS.promoValidatePerClient }])
  const promo = await findPromo(ctx.db, body.promocode)
  const why = refusal(promo, platformOfProduct(body.product))
  if (why) return fail(why)
  return { promocode: promo!.code, discount: promo!.discount }
}

/** The discount text a code gives an order of the platform now, or its refusal (no rate limit: a purchase, not a guess). */
export async function promoDiscountFor(db: Queryable, code: string, platform: Platform): Promise<string> {
  const promo = await findPromo(db, code)
  const why = refusal(promo, platform)
  if (why) return fail(why)
  return promo!.discount
}

export interface PromoReservation {
  reservationId: number
  code: string
  /** the discount text ("10%" or "15"): discountedTotal() prices the order with it */
  discount: string
}

/**
 * Reserves one activation of a code for a purchase, inside the purchase's database transaction:
 * one conditional UPDATE takes it (never more than the code's maximum, however many purchases run
 * at once), and a reservation row named `ref` (the purchase's order or transaction reference)
 * remembers it, so releasePromo(ref) can give it back when the payment is cancelled or expires.
 * Refuses with the code's error when it cannot be used for the platform; the caller's transaction
 * then rolls back with nothing taken.
 */
export async function reservePromo(
  tx: Queryable,
  input: { code: string; clientId: number; ref: string; platform: Platform; transactionId?: number | null },
): Promise<PromoReservation> {
  // one open reservation per client and code: this checkout replaces the client's earlier one
  const promoId = await lockPromo(tx, input.code)
  if (promoId !== null) await releaseClientReservations(tx, promoId, input.clientId)
  const taken = await takeActivation(tx, input.code, input.platform)
  if (!taken) return fail(refusal(await findPromo(tx, input.code), input.platform) ?? 'promo_used_up')
  const reservation = await insertReservation(tx, { promoId: taken.id, clientId: input.clientId, ref: input.ref, transactionId: input.transactionId ?? null })
  return { reservationId: reservation.id, code: taken.code, discount: taken.discount }
}

/**
 * Gives the activation a purchase reserved back to its code (its payment was cancelled, declined or
 * expired). Idempotent: a second call, a purchase without a promo, or a paid one changes nothing.
 * Answers whether this call released an activation.
 */
export const releasePromo = (tx: Queryable, ref: string): Promise<boolean> => releaseReservation(tx, ref)

/** releasePromo for the reservations tied to a transaction (the payment applier's declined or expired path); answers how many codes got one back. */
export const releasePromoOfTransaction = (tx: Queryable, transactionId: number): Promise<number> => releaseReservationsOfTransaction(tx, transactionId)

/** Marks the activation a purchase reserved as spent (the purchase was paid): it is never released after. */
export const confirmPromo = (tx: Queryable, ref: string): Promise<boolean> => confirmReservation(tx, ref)

/** confirmPromo for the reservations tied to a transaction (the payment applier's paid path); answers how many. */
export const confirmPromoOfTransaction = (tx: Queryable, transactionId: number): Promise<number> => confirmReservationsOfTransaction(tx, transactionId)

/**
 * Ties a reservation made before its transaction existed (reserve, then open the provider's
 * checkout for the discounted amount) to that transaction, so the payment's outcome confirms or
 * releases it by transaction id. False when no reservation has the ref.
 */
export const linkPromo = (tx: Queryable, ref: string, transactionId: number): Promise<boolean> => linkReservation(tx, ref, transactionId)

/** An open reservation is released this long after its checkout began (a checkout left open). */
export const RESERVATION_HOLD_SECONDS = 3600
/** How often the sweep runs: a reservation is held at most this much past its hour. */
export const RESERVATION_SWEEP_SECONDS = 5 * 60

/** Releases the reservations of checkouts left open longer than `seconds`; answers how many. */
export const releaseStalePromoReservations = (db: Queryable, seconds = RESERVATION_HOLD_SECONDS) => releaseStaleReservations(db, seconds)

/** Registers the sweep that releases the reservations of checkouts left open for an hour. */
export function scheduleReservationRelease(ctx: Pick<AppContext, 'jobs' | 'db' | 'log'>) {
  ctx.jobs.register('promo.release-stale', async () => {
    const released = await releaseStalePromoReservations(ctx.db)
    if (released > 0) ctx.log.info({ released }, 'promo reservations of unfinished checkouts released')
  })
  ctx.jobs.schedule('promo.release-stale', RESERVATION_SWEEP_SECONDS)
}

// ---- staff (the CLI) ----

export interface CreatePromoInput {
  code: string
  discount: string
  platforms: string[]
  /** the last day the code works (UTC); it expires at the start of the next day */
  expires: string | null
  maxActivations: number | null
}

export type CreatePromoResult = { ok: true; promo: PromoRow } | { ok: false; problem: string }

const CODE_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/

/** The moment a code valid through `day` (YYYY-MM-DD, UTC) expires: the start of the next day; null for a bad date. */
export function expiryOfDay(day: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) return null
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  // 2026-02-30 rolls over: refuse it
  if (date.getUTCFullYear() !== Number(m[1]) || date.getUTCMonth() !== Number(m[2]) - 1 || date.getUTCDate() !== Number(m[3])) return null
  return new Date(date.getTime() + 86_400_000)
}

export async function createPromo(db: Queryable, input: CreatePromoInput): Promise<CreatePromoResult> {
  if (!CODE_RE.test(input.code)) return { ok: false, problem: `A code is 1 to 64 letters, digits, - or _ (starting with a letter or digit): ${input.code}` }
  const discount = parseDiscount(input.discount)
  if (!discount) return { ok: false, problem: `--discount is a percent above 0 and at most 100 (10%) or a USD amount above 0 (15 or 15.50): ${input.discount}` }
  const unknown = input.platforms.filter((p) => !(PLATFORMS as readonly string[]).includes(p))
  if (unknown.length) return { ok: false, problem: `Unknown platform ${unknown.join(', ')}. Platforms: ${PLATFORMS.join(', ')}` }
  const expiresAt = input.expires === null ? null : expiryOfDay(input.expires)
  if (input.expires !== null && !expiresAt) return { ok: false, problem: `--expires is a date YYYY-MM-DD: ${input.expires}` }
  const max = input.maxActivations
  if (max !== null && (!Number.isInteger(max) || max < 1 || max > 2_147_483_647))
    return { ok: false, problem: '--max-activations is a whole number of at least 1' }
  const promo = await insertPromo(db, {
    code: input.code,
    discount: formatDiscount(discount),
    platforms: [...new Set(input.platforms)],
    expiresAt,
    maxActivations: max,
  })
  if (!promo) return { ok: false, problem: `A code ${input.code} exists already (codes are compared without regard to case).` }
  return { ok: true, promo }
}

export const listPromoCodes = (db: Queryable) => listPromos(db)
export const disablePromoCode = (db: Queryable, code: string) => disablePromo(db, code)
