import { describe, expect, it } from 'vitest'
import { CATALOGUE_PRICES, DEFAULT_FACE_MACHINE_CONFIGURATION, FACE_MACHINE_PLANS, FACE_MACHINE_PLAN_ID } from './catalogue.ts'
import { freeLicenses, heldLicenses } from './licenses.ts'
import { ERASE_AFTER_DAYS, dataEraseDate, eraseWarningDate, faceMachinePlanSchema, upgradePriceCents } from './subscriptions.ts'

const DAY = 86_400_000

describe('Face Machine plans', () => {
  it('every plan is a valid plan, ids unique, plan 3 is the spec’s Face Machine plan', () => {
    for (const p of FACE_MACHINE_PLANS) expect(faceMachinePlanSchema.parse(p)).toEqual(p)
    expect(new Set(FACE_MACHINE_PLANS.map((p) => p.plan_id)).size).toBe(FACE_MACHINE_PLANS.length)
    const plan3 = FACE_MACHINE_PLANS.find((p) => p.plan_id === FACE_MACHINE_PLAN_ID)!
    expect(plan3.transactions.per_second).toBe(1)
    expect(plan3.samples.per_workspace).toBe(10_000)
  })
  it('the default configuration of section 9', () => {
    expect(DEFAULT_FACE_MACHINE_CONFIGURATION).toEqual({
      key: 'online',
      requests_per_second: 1,
      face_storage: 10_000,
      channels: 'infinite',
      processing_functions: 'infinite',
      streaming_video: true,
      archived_video: true,
    })
  })
})

describe('upgrade prices', () => {
  it('a trial costs its paid product, Pro → AI the upgrade entry, a group limit times that', () => {
    expect(upgradePriceCents('fmc_subscribe', CATALOGUE_PRICES)).toBe(4900)
    // the analytics tier-4 price: the default upgrade amount of 20
    expect(upgradePriceCents('na_subscribe', CATALOGUE_PRICES)).toBe(2000)
    expect(upgradePriceCents('upgrade_nuitrack_pro', CATALOGUE_PRICES, 3)).toBe(3 * 9990)
  })
})

describe('group holds', () => {
  const now = new Date('2026-11-23T10:00:00Z')
  it('holded_limit counts only while held_until is ahead', () => {
    const g = { available: 5, holded_limit: 2, held_until: new Date(now.getTime() + 60_000) }
    expect(heldLicenses(g, now)).toBe(2)
    expect(freeLicenses(g, now)).toBe(3)
    expect(heldLicenses({ ...g, held_until: now }, now)).toBe(0)
    expect(freeLicenses({ ...g, held_until: null }, now)).toBe(5)
    // never more held than there are
    expect(freeLicenses({ ...g, holded_limit: 9 }, now)).toBe(0)
  })
})

describe('erasure of a paused cloud trial', () => {
  const paused_at = new Date('2026-11-01T00:00:00Z')
  const trial = { product: 'fmc_subscribe', config: { product: 'fmc_subscribe', tag: 'FMC Trial', paused: true }, paused_at, data_erased_at: null }
  it('30 days after the pause, the warning 5 days before', () => {
    expect(dataEraseDate(trial)).toEqual(new Date(paused_at.getTime() + ERASE_AFTER_DAYS * DAY))
    expect(eraseWarningDate(trial)).toEqual(new Date(paused_at.getTime() + 25 * DAY))
  })
  it('none for a resumed, paid, non-cloud or already erased license', () => {
    expect(dataEraseDate({ ...trial, config: { ...trial.config, paused: false } })).toBeNull()
    expect(dataEraseDate({ ...trial, paused_at: null })).toBeNull()
    expect(dataEraseDate({ ...trial, config: { ...trial.config, upgraded: true } })).toBeNull()
    expect(dataEraseDate({ ...trial, product: 'nuitrack_subscribe', config: { product: 'nuitrack_subscribe', tag: 'x', paused: true } })).toBeNull()
    expect(dataEraseDate({ ...trial, data_erased_at: new Date(paused_at.getTime() + 30 * DAY) })).toBeNull()
    // erased during an earlier pause: this pause has its own date
    expect(dataEraseDate({ ...trial, data_erased_at: new Date(paused_at.getTime() - DAY) })).not.toBeNull()
  })
})
