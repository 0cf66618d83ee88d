import { contractCalls, type ContractBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** The refusals the promo input shows under itself (spec section 8). */
export const PROMO_ERRORS = ['promo_not_found', 'promo_expired', 'promo_wrong_platform', 'promo_used_up'] as const

/** POST /api/promocode/validate/: the code and its discount ("10%" a percent, else USD off), or why not. */
export const validatePromo = (promocode: string, product: ContractBody<typeof contracts.promoValidate>['product']) =>
  call(contractCalls.promoValidate, { body: { promocode, product } }, { handle: PROMO_ERRORS })
