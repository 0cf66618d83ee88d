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
