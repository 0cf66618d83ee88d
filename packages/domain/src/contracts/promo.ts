import { contract } from '../contract.ts'
import { promoValidateAnswer, promoValidateBody } from '../promo.ts'

/** Promo codes: the basket's check of a code before the purchase applies it. */
export const promoContracts = {
  promoValidate: contract({
    method: 'POST',
    path: '/promocode/validate/',
    auth: 'client',
    permission: 'money',
    tags: ['promo'],
    summary:
      'Check a promo code for a product: answers the code and its discount ("10%" a percent, else a fixed USD amount), or why it cannot be used (it does not exist, has expired, is not for the product\'s platform, or has no activations left)',
    body: promoValidateBody,
    response: { 200: promoValidateAnswer },
    errors: ['promo_not_found', 'promo_expired', 'promo_wrong_platform', 'promo_used_up'],
    // a code that cannot be a code (empty, stray characters) is one that does not exist
    fieldErrors: { promocode: 'promo_not_found' },
  }),
} as const
