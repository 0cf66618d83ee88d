import type { z } from 'zod'
import { isCorporate, type salesMessageBody } from '@portal/domain'
import { RATE_LIMITS, type AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { hit } from '../../platform/rate-limit.ts'
import { findClientById, toClientInfo } from '../account/service.ts'

type SalesMessage = z.output<typeof salesMessageBody>

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
/** header-safe: a name never carries a line break into the subject */
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').trim()

/**
 * POST /support/contacts-sales/: the message goes by e-mail, through the outbox, to the address the
 * configuration names for the recipient (SALES_RECIPIENTS), with Reply-To the sender so sales
 * answers the customer directly. Limited per sender address, per client and per network address;
 * the count and the mail are written in one transaction.
 */
export async function contactSales(ctx: AppContext, ip: string, clientId: number, body: SalesMessage): Promise<{ status: 'ok' }> {
  const to = Object.hasOwn(ctx.config.SALES_RECIPIENTS, body.recipient) ? ctx.config.SALES_RECIPIENTS[body.recipient]! : null
  if (!to) return fail('sales_recipient_unknown', undefined, 'recipient')
  return ctx.db.transaction(async (tx) => {
    const client = await findClientById(tx, clientId)
    if (!client) return fail('unauthorized')
    await hit(tx, [
      { key: `sales:from:${body.email.toLowerCase()}`, ...RATE_LIMITS.salesPerSender },
      { key: `sales:client:${clientId}`, ...RATE_LIMITS.salesPerSender },
      { key: `sales:ip:${ip}`, ...RATE_LIMITS.salesPerIp },
    ])
    const name = oneLine(body.name)
    const info = toClientInfo(client)
    // sales calls a company back: a corporate account's mail names it and the phone its profile gives
    const company = isCorporate(info)
      ? [`Company: ${oneLine(info.company.name ?? '') || 'not given'}`, `Phone: ${oneLine(info.phone ?? '') || 'not given'}`]
      : []
    const facts = [`From: ${name} <${body.email}>`, `Portal account: ${client.email} (client #${client.id})`, ...company, `Recipient: ${body.recipient}`]
    await ctx.mailer.enqueue(tx, {
      to,
      replyTo: body.email,
      subject: `Contact sales: ${name}`,
      text: `${facts.join('\n')}\n\n${body.message}\n`,
      html: `<p>${facts.map(escapeHtml).join('<br>')}</p><p style="white-space:pre-wrap">${escapeHtml(body.message)}</p>`,
    })
    return { status: 'ok' as const }
  })
}
