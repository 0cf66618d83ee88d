import { formatUsd } from '@portal/domain'
import type { SandboxCheckoutPage, SandboxSessionView as View } from './sandbox.ts'

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)

const SOURCE_NAMES = { stripe: 'Card', paypal: 'PayPal' } as const

const CLOSED_TEXT: Record<Exclude<View['status'], 'open'>, string> = {
  pending: 'This payment is held for review: it completes (or is declined) later, and the portal is told then.',
  paid: 'This checkout has been paid.',
  declined: 'This payment was declined.',
  cancelled: 'This checkout was cancelled.',
  expired: 'This checkout has expired.',
}

function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<link rel="icon" type="image/svg+xml" href="/app/favicon.svg">
<link rel="stylesheet" href="/sandbox/checkout.css">
<script src="/sandbox/checkout.js" defer></script>
</head>
<body>
<main class="checkout">
<p class="badge">Sandbox payment: no real money moves</p>
${main}
</main>
</body>
</html>
`
}

/**
 * The sandbox's hosted checkout, rendered on the server from the same view its API answers: the
 * merchant, the source, the lines and the total, a card checkout's test-card number, and Pay,
 * Pay (held for review), Decline and Cancel (checkout.js sends them). An unknown checkout (view null) or a closed one says so.
 */
export function sandboxPage(checkout: SandboxCheckoutPage | null, csrf: { cookie: string; header: string }): string {
  if (!checkout) {
    return page(
      'Checkout not found',
      `<h1>Checkout not found</h1>
<p>There is no checkout at this address. Start the payment again from the portal.</p>`,
    )
  }
  const { view } = checkout
  const source = SOURCE_NAMES[view.source]
  if (view.status !== 'open') {
    const back = view.status === 'paid' || view.status === 'pending' ? checkout.successUrl : checkout.cancelUrl
    return page(
      `Checkout closed · ${view.merchant}`,
      `<h1>${esc(view.merchant)}</h1>
<p class="closed" role="status">${esc(CLOSED_TEXT[view.status])} Nothing more can be done here.</p>
<p><a class="button" href="${esc(back)}">Back to the portal</a></p>`,
    )
  }
  const lines = view.lines
    .map((l) => `<tr><td>${esc(l.description)}</td><td class="num">${l.quantity}</td><td class="num">${esc(formatUsd(l.amount))}</td></tr>`)
    .join('\n')
  const total = formatUsd(view.amount)
  const renews = checkout.mode === 'subscription'
  const saved = view.source === 'paypal' ? 'PayPal account' : 'card'
  const subscription = renews
    ? `<p class="subscription">A subscription, renewed every ${checkout.interval === 'year' ? 'year' : 'month'}: the ${saved} is saved for the renewals, which ${esc(view.merchant)} charges without you.</p>`
    : ''
  const method =
    view.source === 'stripe'
      ? `<div class="field">
<label for="card-number">Card number</label>
<input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="off" spellcheck="false" maxlength="23" value="4242 4242 4242 4242" aria-describedby="card-hint card-error">
<p class="field-hint" id="card-hint">Sandbox test cards: 4242 4242 4242 4242 (Visa), 5555 5555 5555 4444 (Mastercard), 3782 822463 10005 (American Express) pay; 4000 0000 0000 0002 is declined; 4000 0000 0000 0341 pays now but declines later renewals; 4000 0027 6000 3184 pays now but asks for authentication at every later renewal.</p>
<p class="field-error" id="card-error" role="alert"></p>
</div>`
      : `<p class="payer">PayPal account: <strong>${esc(view.customer_email)}</strong></p>`
  return page(
    `Pay ${total} · ${view.merchant}`,
    `<h1 id="merchant">${esc(view.merchant)}</h1>
<p class="source">Payment by <strong>${esc(source)}</strong> for ${esc(view.customer_email)}</p>
<table aria-labelledby="merchant">
<caption>What you pay for</caption>
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>
${lines}
</tbody>
<tfoot><tr><th scope="row" colspan="2">Total (${esc(view.currency)})</th><td class="num total">${esc(total)}</td></tr></tfoot>
</table>
${subscription}
<form class="pay-form" novalidate>
${method}
<div class="actions" role="group" data-session="${esc(view.id)}" data-csrf-cookie="${esc(csrf.cookie)}" data-csrf-header="${esc(csrf.header)}" aria-label="Payment" aria-busy="true">
<button type="submit" data-action="pay" class="primary" disabled>Pay ${esc(total)}</button>
<button type="button" data-action="pending" disabled>Pay (held for review)</button>
<button type="button" data-action="decline" disabled>Decline</button>
<button type="button" data-action="cancel" class="secondary" disabled>Cancel</button>
</div>
</form>
<p class="status" role="status" aria-live="polite"></p>
<p class="hint">Pay completes the payment, Pay (held for review) leaves it pending as a provider's review does (settle it with <code>npm run portal -- sandbox:settle</code>), Decline acts as if the ${saved} was refused, Cancel returns to the portal without paying.</p>`,
  )
}
