import { describe, expect, it } from 'vitest'
import { platformHasBasket } from './catalogue.ts'
import type { PriceRow } from './prices.ts'
import { CATALOGUE_PRICES } from './catalogue.ts'
import { FIRST_STEPS, firstSteps, planPriceCents, type FirstStepsState } from './onboarding.ts'
import { PLATFORMS } from './platforms.ts'

const ROWS: PriceRow[] = CATALOGUE_PRICES.map((p) => ({ ...p }))
const state = (over: Partial<FirstStepsState> = {}): FirstStepsState => ({
  hasLicense: false,
  balanceCents: 0,
  planPriceCents: 3000,
  fillSkipped: false,
  ...over,
})
const active = (platform: Parameters<typeof firstSteps>[0], over: Partial<FirstStepsState> = {}) => {
  const view = firstSteps(platform, state(over))
  return view.steps[view.active]!.kind
}

describe('the plan price of the fill step', () => {
  it("is the platform's cheapest thing to buy, from the price rows", () => {
    // face: the $30 monthly subscription is cheaper than the $50 one-month all-in-one
    expect(planPriceCents('face', ROWS)).toBe(3000)
    expect(planPriceCents('face-machine', ROWS)).toBe(4900)
    // analytics sells tier 4 only, not the cheaper tiers 1 to 3
    expect(planPriceCents('nuitrack-analytics', ROWS)).toBe(2000)
    expect(planPriceCents('nuitrack', ROWS)).toBe(328)
  })

  it('follows a changed price and is null when nothing is for sale', () => {
    const cheaper = ROWS.map((r) => (r.product === 'face_online_all_in_one' ? { ...r, cost_cents: 1000 } : r))
    expect(planPriceCents('face', cheaper)).toBe(1000)
    expect(
      planPriceCents(
        'face-machine',
        ROWS.filter((r) => r.platform !== 'face-machine'),
      ),
    ).toBeNull()
  })
})

describe('the first steps of each platform', () => {
  it('lists the steps of section 4, success last', () => {
    expect(FIRST_STEPS.nuitrack).toEqual(['buy', 'success'])
    expect(FIRST_STEPS.face).toEqual(['fill', 'buy', 'success'])
    expect(FIRST_STEPS['face-machine']).toEqual(['buy', 'fill', 'success'])
    expect(FIRST_STEPS['nuitrack-analytics']).toEqual(['buy', 'fill', 'success'])
  })

  it('nuitrack: buy until a license exists, then success; the balance does not matter', () => {
    expect(active('nuitrack')).toBe('buy')
    expect(active('nuitrack', { balanceCents: 1_000_000 })).toBe('buy')
    expect(active('nuitrack', { hasLicense: true })).toBe('success')
    expect(firstSteps('nuitrack', state({ hasLicense: true })).steps).toEqual([
      { kind: 'buy', done: true },
      { kind: 'success', done: false },
    ])
  })

  it('face: fill, then buy, then success', () => {
    expect(active('face')).toBe('fill')
    expect(active('face', { balanceCents: 2999 })).toBe('fill')
    expect(active('face', { balanceCents: 3000 })).toBe('buy')
    expect(active('face', { balanceCents: 3000, hasLicense: true })).toBe('success')
  })

  it('face: skipping the fill step goes to buy; a license bought by card ends at success', () => {
    expect(active('face', { fillSkipped: true })).toBe('buy')
    expect(active('face', { fillSkipped: true, hasLicense: true })).toBe('success')
    expect(active('face', { hasLicense: true })).toBe('success')
  })

  it.each(['face-machine', 'nuitrack-analytics'] as const)('%s: buy (a trial), then fill to the plan price, then success; no skip', (platform) => {
    expect(active(platform)).toBe('buy')
    expect(active(platform, { balanceCents: 5000 })).toBe('buy')
    expect(active(platform, { hasLicense: true })).toBe('fill')
    expect(active(platform, { hasLicense: true, fillSkipped: true })).toBe('fill')
    expect(active(platform, { hasLicense: true, balanceCents: 2999 })).toBe('fill')
    expect(active(platform, { hasLicense: true, balanceCents: 3000 })).toBe('success')
  })

  it('gives the shortfall to the plan price', () => {
    expect(firstSteps('face', state({ balanceCents: 1250 })).shortfallCents).toBe(1750)
    expect(firstSteps('face', state({ balanceCents: 5000 })).shortfallCents).toBe(0)
    expect(firstSteps('face', state({ planPriceCents: null })).shortfallCents).toBe(0)
  })

  it('without a plan price the fill step does not hold the customer back', () => {
    expect(active('face', { planPriceCents: null })).toBe('buy')
    expect(active('face-machine', { planPriceCents: null, hasLicense: true })).toBe('success')
  })
})

describe('which platforms have a basket', () => {
  it('every platform that sells something, except Face Machine', () => {
    expect(PLATFORMS.filter(platformHasBasket)).toEqual(['nuitrack', 'face', 'nuitrack-analytics'])
  })
})
