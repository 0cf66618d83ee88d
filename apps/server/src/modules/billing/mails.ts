import { linkMail, type Mail } from '../../platform/mailer.ts'

/** A subscription paid while the provider kept no payment method for its renewals (PayPal vaulted nothing). */
export function renewalsNeedMethodMail(publicUrl: string, to: string, m: { paidWith: string | null }): Mail {
  return linkMail(
    to,
    'Your subscription needs a payment method for its renewals',
    `Thank you: your payment${m.paidWith ? ` with ${m.paidWith}` : ''} went through and your licenses are ready. ` +
      'The payment provider did not keep a payment method for the renewals, so your subscription cannot renew by itself.',
    'Open your licenses',
    `${publicUrl}/app/`,
    'Before the period ends, add funds to your balance, or reactivate the subscription with a card or PayPal on the license page.',
  )
}

/** A payment taken back (refunded, disputed, reversed): what it was, what happens to what it bought. */
export function reversedMail(
  publicUrl: string,
  to: string,
  m: {
    kind: 'refund' | 'dispute' | 'reversal'
    amount: string
    what: string
    creditNote: string
    suspended: number
    /** ungenerated licenses of the purchase taken out of its groups */
    capacityTaken: number
    /** a part of a purchase given back: what it bought stays */
    partial: boolean
    owed: string | null
  },
): Mail {
  const taken =
    m.kind === 'refund'
      ? `has been refunded (${m.amount})`
      : m.kind === 'dispute'
        ? `is disputed (${m.amount})`
        : `was reversed by the payment provider (${m.amount})`
  const licenses =
    m.suspended > 0 ? ` The ${m.suspended === 1 ? 'license' : `${m.suspended} licenses`} it paid for ${m.suspended === 1 ? 'is' : 'are'} suspended.` : ''
  const capacity =
    m.capacityTaken > 0
      ? ` ${m.capacityTaken === 1 ? 'The license' : `The ${m.capacityTaken} licenses`} it paid for and not yet generated ${m.capacityTaken === 1 ? 'was' : 'were'} taken out of your groups.`
      : ''
  const kept = m.partial ? ' This is a part of the payment: the licenses it bought stay as they are.' : ''
  const owed = m.owed
    ? ` Your balance had already been spent: ${m.owed} is owed, and purchases from the balance wait until it is paid (a top-up pays it first).`
    : ''
  return linkMail(
    to,
    m.kind === 'refund' ? 'Your payment was refunded' : 'A payment of yours was taken back',
    `Your payment for ${m.what} ${taken}. Credit note ${m.creditNote} corrects its invoice; you find it with your payment documents.${licenses}${capacity}${kept}${owed}`,
    'Open your payment documents',
    `${publicUrl}/app/`,
    m.kind === 'dispute' ? 'If the dispute is decided in our favour, the licenses come back by themselves.' : 'Questions? Reply to this mail.',
  )
}

/** A dispute decided for the merchant: what it suspended is back. */
export function restoredMail(publicUrl: string, to: string, m: { what: string; restored: number; capacity: number }): Mail {
  const back = [
    m.restored > 0 ? `the ${m.restored === 1 ? 'license' : `${m.restored} licenses`} it paid for ${m.restored === 1 ? 'is' : 'are'} active again` : null,
    m.capacity > 0 ? `${m.capacity === 1 ? 'one license' : `${m.capacity} licenses`} to generate ${m.capacity === 1 ? 'is' : 'are'} back in your groups` : null,
  ].filter((x) => x !== null)
  return linkMail(
    to,
    'Your licenses are active again',
    `The dispute about your payment for ${m.what} was closed in our favour: the payment stands${back.length ? ` and ${back.join(', and ')}` : ''}.`,
    'Open your licenses',
    `${publicUrl}/app/`,
    'Questions? Reply to this mail.',
  )
}
