import { saleEntriesOf } from './catalogue.ts'
import { unitPriceCents, type PriceRow } from './prices.ts'
import type { Cents } from './money.ts'
import type { Platform } from './platforms.ts'

/**
 * The dashboard's first-steps block (spec section 4, "Onboarding"): nuitrack = buy, success;
 * face = fill balance (skippable), buy, success; face-machine and nuitrack-analytics = buy (start a
 * trial), fill balance, success. Buy is done once the platform has a license; fill once the balance
 * reaches the plan price. The block shows the first step that is not done; the last step is success.
 */
export type FirstStepKind = 'buy' | 'fill' | 'success'

export const FIRST_STEPS: Readonly<Record<Platform, readonly FirstStepKind[]>> = {
  nuitrack: ['buy', 'success'],
  face: ['fill', 'buy', 'success'],
  'face-machine': ['buy', 'fill', 'success'],
  'nuitrack-analytics': ['buy', 'fill', 'success'],
}

/** Only Face SDK's fill step may be skipped (the customer may pay by card instead). */
export const fillSkippable = (platform: Platform) => platform === 'face'

export interface FirstStepsState {
  /** the platform has a license or a group slot (a trial counts) */
  hasLicense: boolean
  balanceCents: Cents
  /** the plan price the fill step aims at; null when nothing of the platform is for sale */
  planPriceCents: Cents | null
  /** the customer skipped the fill step (face only) */
  fillSkipped: boolean
}

export interface FirstStep {
  kind: FirstStepKind
  done: boolean
}

export interface FirstStepsView {
  steps: FirstStep[]
  /** index of the step the block shows: the first one not done (the success step is never done) */
  active: number
  /** what the balance lacks to reach the plan price (0 when it does) */
  shortfallCents: Cents
}

/**
 * The plan price of a platform's fill step: the cheapest thing its basket sells (face: the cheapest
 * face entry; face-machine: fmc_subscribe; nuitrack-analytics: na_subscribe's sold tier 4). Null when
 * the price table has no row for any of them.
 */
export function planPriceCents(platform: Platform, rows: readonly PriceRow[]): Cents | null {
  const costs = saleEntriesOf(platform)
    .map((e) => unitPriceCents(e, rows))
    .filter((c): c is Cents => c !== null)
  return costs.length === 0 ? null : Math.min(...costs)
}

/** The steps of a platform's first-steps block and the one it shows. */
export function firstSteps(platform: Platform, state: FirstStepsState): FirstStepsView {
  const price = state.planPriceCents
  // with nothing for sale there is no amount to reach: the fill step does not hold the customer back
  const funded = price === null || state.balanceCents >= price
  const done = (kind: FirstStepKind): boolean => {
    if (kind === 'buy') return state.hasLicense
    if (kind === 'success') return false
    // face fills before buying: a license bought by card (or a skip) makes the fill step moot
    if (fillSkippable(platform)) return funded || state.fillSkipped || state.hasLicense
    return funded
  }
  const steps = FIRST_STEPS[platform].map((kind) => ({ kind, done: done(kind) }))
  const active = steps.findIndex((s) => !s.done)
  return { steps, active, shortfallCents: price === null ? 0 : Math.max(0, price - state.balanceCents) }
}

/**
 * The onboarding tour (spec section 2: 4 steps): each step points at the element it explains,
 * named by its `data-tour` attribute; where that element is hidden (the side menu collapsed at
 * 1024 px and below) the step points at the fallback (the menu button) instead.
 */
export interface TourStep {
  target: string
  fallback: string | null
  title: string
  text: string
}

export const TOUR_STEPS: readonly TourStep[] = [
  {
    target: 'products',
    fallback: 'menu-button',
    title: 'Your products',
    text: 'Nuitrack, Face SDK, Face Machine and Nuitrack Analytics each have a dashboard with their licenses. Switch between them here.',
  },
  {
    target: 'balance',
    fallback: 'menu-button',
    title: 'Your balance',
    text: 'Top up your balance by card or PayPal and pay for licenses and renewals from it. Select it to add funds.',
  },
  {
    target: 'help',
    fallback: null,
    title: 'Buy, get help, read the docs',
    text: 'Buy licenses or start a trial, open a support ticket and find the documentation of the product from these tiles.',
  },
  {
    target: 'licenses',
    fallback: null,
    title: 'Your licenses',
    text: 'Every license and group of the product is listed here. Open one to activate it, rename it, upgrade it or manage its subscription.',
  },
]
