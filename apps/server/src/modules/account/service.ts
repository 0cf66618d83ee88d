import { PLATFORMS, TRIALS, type Prices, type ProfileResponse, type UpdateClientBody } from '@portal/domain'
import type { z } from 'zod'
import type { updateClientBody } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { fail } from '../../platform/errors.ts'
import { sendMailLimited } from '../../platform/limited-mail.ts'
import { linkMail } from '../../platform/mailer.ts'
import { listPrices } from '../catalogue/service.ts'
import { emailTaken, findClientById, issueToken, lockClientRow, setPendingEmail, toClientInfo, trialsTaken, updateClientProfile } from './queries.ts'

/** The products whose free trial the client has taken (the profile's trials_used; createTrial refuses these). */
export async function trialsUsed(db: Queryable, clientId: number): Promise<string[]> {
  const trials = Object.values(TRIALS)
  const had = await trialsTaken(
    db,
    clientId,
    trials.map((t) => t.product),
  )
  return trials.filter((t) => had.some((h) => h.product === t.product && h.tag === t.tag)).map((t) => t.product)
}

/** Every change to a client's balance, licenses and groups takes the client row first: one order, no deadlocks. */
export async function lockClient(tx: Queryable, clientId: number) {
  await lockClientRow(tx, clientId)
}

export {
  emailTaken,
  findClientByEmail,
  findClientById,
  insertClient,
  issueToken,
  setPassword,
  toClientInfo,
  updateClientProfile,
  type ClientRow,
} from './queries.ts'

export async function getProfile(ctx: AppContext, clientId: number): Promise<ProfileResponse> {
  const [client, prices, trials] = await Promise.all([findClientById(ctx.db, clientId), listPrices(ctx.db), trialsUsed(ctx.db, clientId)])
  if (!client) return fail('unauthorized')
  const byPlatform = Object.fromEntries(
    PLATFORMS.map((p) => [p, prices.filter((x) => x.platform === p).map(({ platform: _platform, ...entry }) => entry)]),
  ) as unknown as Prices
  return {
    client_info: toClientInfo(client),
    prices: byPlatform,
    // the browser's keys of the real providers ('' where one is not configured)
    payment_provider_key: ctx.config.STRIPE_PUBLISHABLE_KEY ?? '',
    paypal_merchant_id: ctx.config.PAYPAL_MERCHANT_ID ?? '',
    paypal_client_id: ctx.config.PAYPAL_CLIENT_ID ?? '',
    trials_used: trials,
  }
}

type UpdateBody = z.output<typeof updateClientBody>

/**
 * Profile, company and options change at once; a new e-mail only becomes pending and takes effect
 * when the link sent to it is followed.
 */
export async function updateClient(ctx: AppContext, ip: string, clientId: number, body: UpdateBody) {
  return ctx.db.transaction(async (tx) => {
    const current = await findClientById(tx, clientId, true)
    if (!current) return fail('unauthorized')
    let row = await updateClientProfile(tx, clientId, body)
    let emailConfirmationSent = false
    if (body.email !== undefined && body.email.toLowerCase() !== current.email.toLowerCase()) {
      if (await emailTaken(tx, body.email, clientId)) return fail('email_in_use', undefined, 'email')
      const token = await issueToken(tx, clientId, 'email_change', body.email)
      await setPendingEmail(tx, clientId, body.email)
      const url = `${ctx.config.PUBLIC_URL}/app/registration-confirm/${clientId}/${token}/`
      await sendMailLimited(
        ctx,
        tx,
        ip,
        linkMail(
          body.email,
          'Confirm your new e-mail',
          `You asked to change the e-mail of your 3DiVi portal account from ${current.email} to ${body.email}.`,
          'Confirm the new e-mail',
          url,
          'The change takes effect once you follow the link. It works for 24 hours.',
        ),
      )
      row = { ...row, pending_email: body.email }
      emailConfirmationSent = true
    }
    return { client_info: toClientInfo(row), email_confirmation_sent: emailConfirmationSent }
  })
}

export type { UpdateClientBody }
