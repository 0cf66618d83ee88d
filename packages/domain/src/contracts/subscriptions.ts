import { z } from '../zod.ts'
import { contract } from '../contract.ts'
import { licenseViewSchema } from '../license-views.ts'
import {
  faceMachinePlanSchema,
  groupUpgradeBody,
  licenseUpgradeBody,
  reactivateBody,
  renewalPaymentBody,
  renewalPaymentViewSchema,
  returnUrlErrors,
} from '../subscriptions.ts'
import { paymentSchema } from './money.ts'
import { idParams } from './licenses.ts'

const tags = ['subscriptions']

/**
 * What an upgrade answers: paid from the balance it is done (`status: 'paid'`); by card or PayPal it
 * answers the checkout (`status: 'pending'`) and holds the license or group until the payment
 * completes, is cancelled or expires.
 */
export const upgradeResponse = z.object({
  status: z.enum(['paid', 'pending']),
  order_id: z.number(),
  transaction_id: z.number(),
  /** USD, 2 decimals */
  amount: z.number(),
  payment: paymentSchema.nullable(),
})

const upgradeErrors = [
  'not_found',
  'license_on_hold',
  'action_unavailable',
  'upgrade_by_support',
  'insufficient_funds',
  'external_payments_unavailable',
] as const

export const subscriptionContracts = {
  licenseCancelSubscription: contract({
    method: 'POST',
    path: '/license/:id/cancel-subscription/',
    auth: 'client',
    permission: 'money',
    tags,
    summary: 'Cancel a subscription: it stays active to the end of the prepaid period and does not renew',
    params: idParams,
    response: { 200: licenseViewSchema },
    errors: ['not_found', 'license_on_hold', 'action_unavailable'],
  }),
  licenseReactivateSubscription: contract({
    method: 'POST',
    path: '/license/:id/reactivate-subscription/',
    auth: 'client',
    permission: 'money',
    tags,
    summary:
      'Reactivate a subscription: a cancellation within the paid period is undone (status ok); an ended, stopped or past-due one is paid for a new period (paid from the balance, or a checkout)',
    params: idParams,
    body: reactivateBody,
    response: {
      200: z.object({
        status: z.enum(['ok', 'paid', 'pending']),
        transaction_id: z.number().nullable(),
        amount: z.number().nullable(),
        payment: paymentSchema.nullable(),
        license: licenseViewSchema,
      }),
    },
    errors: [
      'not_found',
      'license_on_hold',
      'action_unavailable',
      'subscription_cancelled',
      'wallet_renewal_unavailable',
      'insufficient_funds',
      'external_payments_unavailable',
    ],
    fieldErrors: returnUrlErrors,
  }),
  licenseRenewalPayment: contract({
    method: 'GET',
    path: '/license/:id/renewal-payment/',
    auth: 'client',
    permission: 'documents',
    tags,
    summary: 'The renewal payment waiting for the customer (the card asked for authentication): amount, period and pay-by date',
    params: idParams,
    response: { 200: renewalPaymentViewSchema },
    errors: ['not_found'],
  }),
  licensePayRenewal: contract({
    method: 'POST',
    path: '/license/:id/renewal-payment/',
    auth: 'client',
    permission: 'money',
    tags,
    summary:
      'Pay the renewal waiting for the customer on-session: answers the checkout (one per renewal, whoever asks at once; a new one once it closed unpaid)',
    params: idParams,
    body: renewalPaymentBody,
    response: { 200: z.object({ transaction_id: z.number(), amount: z.number(), payment: paymentSchema }) },
    errors: ['not_found', 'license_on_hold', 'action_unavailable', 'external_payments_unavailable'],
    fieldErrors: returnUrlErrors,
  }),
  licenseUpgrade: contract({
    method: 'POST',
    path: '/license/:id/upgrade/',
    auth: 'client',
    permission: 'money',
    tags,
    summary: 'Upgrade a license in place (a trial to paid, Nuitrack Pro to AI), keeping its key and devices',
    params: idParams,
    body: licenseUpgradeBody,
    response: { 200: upgradeResponse },
    errors: [...upgradeErrors],
    fieldErrors: returnUrlErrors,
  }),
  groupUpgrade: contract({
    method: 'POST',
    path: '/group/:id/upgrade/',
    auth: 'client',
    permission: 'money',
    tags,
    summary: "Upgrade `limit` of a group's available licenses (Nuitrack Pro to AI)",
    params: idParams,
    body: groupUpgradeBody,
    response: { 200: upgradeResponse },
    errors: [...upgradeErrors, 'not_enough_licenses'],
    fieldErrors: returnUrlErrors,
  }),
  faceMachineRates: contract({
    method: 'GET',
    path: '/face-machine/rates/',
    auth: 'client',
    permission: 'read',
    tags,
    summary: 'The Face Machine plans: limits per plan, null or infinite meaning unlimited',
    response: { 200: z.object({ plans: z.array(faceMachinePlanSchema) }) },
    errors: ['face_machine_unavailable'],
  }),
  analyticsUpgradeCost: contract({
    method: 'GET',
    path: '/nuitrack-analytics/:id/upgrade-cost/',
    auth: 'client',
    permission: 'read',
    tags,
    summary: 'What upgrading this Nuitrack Analytics license costs (USD)',
    params: idParams,
    response: { 200: z.object({ amount: z.number() }) },
    errors: ['not_found', 'action_unavailable'],
  }),
} as const
