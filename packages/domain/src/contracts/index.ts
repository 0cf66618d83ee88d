import type { ContractCall } from '../contract.ts'
import { activationContracts } from './activation.ts'
import { activityContracts } from './activity.ts'
import { basketContracts } from './basket.ts'
import { accountContracts } from './account.ts'
import { authContracts } from './auth.ts'
import { groupContracts } from './groups.ts'
import { staffContracts } from './staff.ts'
import { licenseContracts } from './licenses.ts'
import { moneyContracts } from './money.ts'
import { platformContracts } from './platform.ts'
import { promoContracts } from './promo.ts'
import { subscriptionContracts } from './subscriptions.ts'
import { supportContracts } from './support.ts'
import { feedbackContracts } from './feedback.ts'
import { tokenContracts } from './tokens.ts'
import { webhookContracts } from './webhooks.ts'
import { orgContracts } from './orgs.ts'
import { fleetContracts } from './fleet.ts'

/** Every API call, by name: the server serves exactly these and the web calls them. */
export const contracts = {
  ...licenseContracts,
  ...groupContracts,
  ...staffContracts,
  ...activationContracts,
  ...authContracts,
  ...accountContracts,
  ...platformContracts,
  ...moneyContracts,
  ...promoContracts,
  ...supportContracts,
  ...feedbackContracts,
  ...basketContracts,
  ...subscriptionContracts,
  ...activityContracts,
  ...tokenContracts,
  ...webhookContracts,
  ...orgContracts,
  ...fleetContracts,
} as const

/** Every call as the browser holds it (contract-calls.ts): method and path, typed by its contract. */
export type ContractCalls = { readonly [K in keyof typeof contracts]: ContractCall<(typeof contracts)[K]> }
