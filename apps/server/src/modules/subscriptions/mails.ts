import { defaultLicenseTitle, formatCents, pricePerTerm, termMonths, type Cents, type RenewableLicense } from '@portal/domain'
import { linkMail, type Mail } from '../../platform/mailer.ts'
import { formatInvoiceDate } from '../transactions/service.ts'

/** The mails of subscriptions: a failed renewal, one that needs the customer's authentication, a stopped license, a license about to end. */

interface LicenseRef {
  id: number
  type: string
  product: string
  title: string | null
  /** its term (license_expire_delta): what the price is for */
  config?: RenewableLicense['config']
}

/** The license's info screen, where the customer fixes its payment or reactivates it. */
export const licenseInfoUrl = (publicUrl: string, l: Pick<LicenseRef, 'id' | 'type'>) => `${publicUrl}/app/${l.type}/dashboard/${l.id}/info/`

const nameOf = (l: LicenseRef) => l.title ?? defaultLicenseTitle(l.product, l.id)
/** The renewal price as its term states it: "$150.00 every 3 months". */
const pricedTerm = (l: LicenseRef, cents: Cents) => {
  const months = termMonths({ product: l.product, config: l.config ?? {} })
  return months ? pricePerTerm(formatCents(cents), months) : formatCents(cents)
}

export function renewalFailedMail(publicUrl: string, to: string, l: LicenseRef, m: { amountCents: Cents; reason: string | null; retryAt: Date }): Mail {
  return linkMail(
    to,
    `Payment for ${nameOf(l)} failed`,
    `We could not renew ${nameOf(l)}: the payment of ${pricedTerm(l, m.amountCents)} did not go through${m.reason ? ` (${m.reason})` : ''}. ` +
      `The license is suspended until the payment succeeds. We will try again on ${formatInvoiceDate(m.retryAt)}.`,
    'Fix the payment',
    licenseInfoUrl(publicUrl, l),
    'You can add funds to your balance, or reactivate the subscription with another card, on the license page.',
  )
}

/** The portal's page where the customer pays a renewal that asked for authentication, on-session. */
export const renewalPaymentUrl = (publicUrl: string, l: Pick<LicenseRef, 'id' | 'type'>) => `${publicUrl}/app/${l.type}/dashboard/${l.id}/renewal-payment/`

export function renewalAuthenticationMail(
  publicUrl: string,
  to: string,
  l: LicenseRef,
  m: { amountCents: Cents; period: { from: Date; to: Date | null }; payBy: Date },
): Mail {
  const period = m.period.to ? `${formatInvoiceDate(m.period.from)} to ${formatInvoiceDate(m.period.to)}` : `from ${formatInvoiceDate(m.period.from)}`
  return linkMail(
    to,
    `Confirm the payment for ${nameOf(l)}`,
    `Your bank asks you to confirm the renewal payment of ${nameOf(l)} (${pricedTerm(l, m.amountCents)}, for ${period}), so we could not charge your card without you. ` +
      `Please confirm it by ${formatInvoiceDate(m.payBy)}: the license keeps working until then.`,
    'Confirm the payment',
    renewalPaymentUrl(publicUrl, l),
    'If it is not paid by then, the subscription stops. We will not try to charge the card again without you.',
  )
}

export function renewalStoppedMail(publicUrl: string, to: string, l: LicenseRef, m: { amountCents: Cents }): Mail {
  return linkMail(
    to,
    `${nameOf(l)} has been stopped`,
    `The last attempt to renew ${nameOf(l)} (${pricedTerm(l, m.amountCents)}) failed, so the subscription has been stopped and the license no longer works.`,
    'Reactivate the subscription',
    licenseInfoUrl(publicUrl, l),
    'Reactivating it pays for a new period and the license works again at once.',
  )
}

export function expiringSoonMail(publicUrl: string, to: string, l: LicenseRef & { expire_date: Date }): Mail {
  return linkMail(
    to,
    `${nameOf(l)} expires on ${formatInvoiceDate(l.expire_date)}`,
    `${nameOf(l)} will not renew and stops working on ${formatInvoiceDate(l.expire_date)}.`,
    'See the license',
    licenseInfoUrl(publicUrl, l),
    'To keep using it, reactivate its subscription or buy a new license before then.',
  )
}
