import { describe, expect, it } from 'vitest'
import {
  MONTH_SECONDS,
  checkGroupSize,
  checkTitle,
  daysToExpiry,
  defaultGroupSize,
  defaultGroupTitle,
  defaultLicenseTitle,
  canSplitFrom,
  enabledLockOptions,
  groupKind,
  groupResizeBounds,
  isSourceGroupOf,
  isSubscription,
  isTrial,
  licenseStatus,
  lifetime,
  lockOptionsValid,
  numericStatus,
  platformOfProduct,
  serialSensorText,
  subscriptionStatus,
  trialDaysLeft,
  type LicenseFacts,
  trialEnd,
  trialHasOwnGroup,
} from './licenses.ts'
import { staffLicenseBody, staffCustomTags } from './license-schemas.ts'

const now = new Date('2026-11-22T12:00:00Z')
const later = new Date('2026-12-22T12:00:00Z')
const earlier = new Date('2026-10-22T12:00:00Z')
const lic = (over: Partial<LicenseFacts> = {}): LicenseFacts => ({
  product: 'nuitrack_subscribe',
  config: { product: 'nuitrack_subscribe' },
  status: 0,
  held_until: null,
  expire_date: null,
  activation_date: null,
  activation_count: 0,
  ...over,
})

describe('license status (section 4)', () => {
  it('holded while on hold (status 2 is derived from held_until)', () => {
    expect(licenseStatus(lic({ held_until: later }), now)).toBe('holded')
    expect(numericStatus(lic({ held_until: later }), now)).toBe(2)
    expect(licenseStatus(lic({ held_until: earlier }), now)).toBe('new')
  })
  it('suspended when expired or status 1', () => {
    expect(licenseStatus(lic({ expire_date: earlier, activation_count: 1 }), now)).toBe('suspended')
    expect(licenseStatus(lic({ status: 1 }), now)).toBe('suspended')
    expect(numericStatus(lic({ status: 1 }), now)).toBe(1)
  })
  it('active when activated, when a group key was used, or with an activation date', () => {
    expect(licenseStatus(lic({ activation_count: 1 }), now)).toBe('active')
    expect(licenseStatus(lic({ group_key_used: true }), now)).toBe('active')
    expect(licenseStatus(lic({ activation_date: earlier }), now)).toBe('active')
  })
  it('new otherwise', () => {
    expect(licenseStatus(lic({ expire_date: later }), now)).toBe('new')
  })
})

describe('subscription status (section 4)', () => {
  it('is null for products that are not subscriptions', () => {
    expect(subscriptionStatus(lic({ product: 'old' }), now)).toBeNull()
  })
  it('none for a non-upgraded Face Machine or Analytics trial', () => {
    expect(subscriptionStatus(lic({ product: 'fmc_subscribe', config: { product: 'fmc_subscribe', tag: 'FMC Trial' } }), now)).toBe('none')
    expect(subscriptionStatus(lic({ product: 'na_subscribe', config: { product: 'na_subscribe', tag: 'NA Trial', upgraded: true } }), now)).toBe('active')
  })
  it('cancelled if an online Nuitrack product is expired, or paused and expired', () => {
    expect(subscriptionStatus(lic({ expire_date: earlier }), now)).toBe('cancelled')
    expect(subscriptionStatus(lic({ product: 'fmc_subscribe', config: { product: 'fmc_subscribe', paused: true }, expire_date: earlier }), now)).toBe(
      'cancelled',
    )
  })
  it('paused if paused, else active', () => {
    expect(subscriptionStatus(lic({ product: 'fmc_subscribe', config: { product: 'fmc_subscribe', paused: true }, expire_date: later }), now)).toBe('paused')
    expect(subscriptionStatus(lic({ product: 'face_online_subscribe', config: { product: 'face_online_subscribe' }, expire_date: earlier }), now)).toBe(
      'active',
    )
  })
})

describe('derived values', () => {
  it('trial: a tag and not upgraded, or the Nuitrack trial', () => {
    expect(isTrial({ product: 'fmc_subscribe', config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).toBe(true)
    expect(isTrial({ product: 'fmc_subscribe', config: { product: 'fmc_subscribe', tag: 'FMC Trial', upgraded: true } })).toBe(false)
    expect(isTrial({ product: 'nuitrack_trial', config: { product: 'nuitrack_trial' } })).toBe(true)
    expect(isSubscription('na_subscribe')).toBe(true)
    expect(isSubscription('old')).toBe(false)
  })
  it('lifetime: year from 11 months on', () => {
    expect(lifetime({ license_expire_delta: 11 * MONTH_SECONDS })).toBe('year')
    expect(lifetime({ license_expire_delta: 11 * MONTH_SECONDS - 1 })).toBe('month')
    expect(lifetime({ license_expire_delta: null })).toBeNull()
  })
  it('days to expiry and trial days (at least 1 while running)', () => {
    expect(daysToExpiry(later, now)).toBe(30)
    expect(daysToExpiry(earlier, now)).toBe(-31)
    expect(daysToExpiry(null, now)).toBeNull()
    expect(trialDaysLeft(new Date(now.getTime() + 3600_000), now)).toBe(1)
    expect(trialDaysLeft(earlier, now)).toBe(-31)
  })
  it('default titles, platforms and the serial/sensor text', () => {
    expect(defaultLicenseTitle('face_online_subscribe', 7)).toBe('Face SDK subscription #7')
    expect(defaultGroupTitle('nuitrack_subscribe', 3)).toBe('Nuitrack subscription group #3')
    expect(platformOfProduct('fmc_subscribe')).toBe('face-machine')
    expect(platformOfProduct('na_subscribe')).toBe('nuitrack-analytics')
    expect(platformOfProduct('face_offline_custom')).toBe('face')
    expect(platformOfProduct('old')).toBe('nuitrack')
    expect(serialSensorText([{ serial: 'S1', sensor_name: 'D435' }])).toBe('S1 / D435')
    expect(serialSensorText([])).toBe('')
  })
})

describe('section 5 rules for titles and groups', () => {
  it('title: trimmed, not empty, at most 256', () => {
    expect(checkTitle('  ')).toBe('field_empty_error')
    expect(checkTitle(' ' + 'x'.repeat(256) + ' ')).toBeNull()
    expect(checkTitle('x'.repeat(257))).toBe('license_title_max_length_error')
  })
  it('group size: above 0, 2 or more, not above the source; default the lesser of 2 and the limit', () => {
    expect(checkGroupSize(0, 5)).toBe('group_size_is_zero')
    expect(checkGroupSize(1, 5)).toBe('group_min_size_error')
    expect(checkGroupSize(6, 5)).toBe('license_in_group_limit_error')
    expect(checkGroupSize(2.5, 5)).toBe('group_size_number_error')
    expect(checkGroupSize(5, 5)).toBeNull()
    expect(defaultGroupSize(1)).toBe(1)
    expect(defaultGroupSize(9)).toBe(2)
    expect(groupResizeBounds(3, 4)).toEqual({ min: 1, max: 7 })
  })
  it('custom-license locks: an exclusive lock disables the rest; platforms leave only platforms', () => {
    expect([...enabledLockOptions([])].sort()).toEqual(['android_app_id', 'hardware', 'ios_app_id', 'platforms', 'usb_token'])
    expect([...enabledLockOptions(['usb_token'])]).toEqual(['usb_token'])
    expect([...enabledLockOptions(['platforms'])]).toEqual(['platforms'])
    expect(lockOptionsValid(['hardware', 'ios_app_id'])).toBe(false)
    expect(lockOptionsValid(['platforms'])).toBe(true)
  })
})

describe('staff lock tags, whichever field carries them', () => {
  const order = (deviceBound: boolean, tags: Record<string, unknown>, extra?: Record<string, string>) => ({
    config: { device_bound: deviceBound },
    custom_tags: tags,
    custom_tags_extra: extra,
  })

  it('merges custom_tags_extra over custom_tags and reads its lock tags by the same rules', () => {
    expect(staffCustomTags(order(false, {}, { hardware_key_serial: 'true', note: 'x' }))).toEqual({ ok: true, tags: { hardware_key_serial: true, note: 'x' } })
    expect(staffCustomTags(order(false, { allowed_platforms: 'linux-x86_64' }, { customer_ref: '42' }))).toEqual({
      ok: true,
      tags: { allowed_platforms: 'linux-x86_64', customer_ref: '42' },
    })
    expect(staffCustomTags(order(false, {}, { ios_app_id: ' com.x ' }))).toEqual({ ok: true, tags: { ios_app_id: 'com.x' } })
  })

  it('refuses a second exclusive lock in custom_tags_extra, a malformed lock tag and a lock tag given twice', () => {
    expect(staffCustomTags(order(true, {}, { hardware_key_serial: 'true' }))).toEqual({ ok: false, field: 'custom_tags_extra' })
    expect(staffCustomTags(order(false, { ios_app_id: 'com.x' }, { android_app_id: 'com.y' }))).toEqual({ ok: false, field: 'custom_tags_extra' })
    expect(staffCustomTags(order(false, { allowed_platforms: 'linux-x86_64' }, { ios_app_id: 'com.y' }))).toEqual({ ok: false, field: 'custom_tags_extra' })
    expect(staffCustomTags(order(false, {}, { hardware_key_serial: 'false' }))).toEqual({ ok: false, field: 'custom_tags_extra' })
    expect(staffCustomTags(order(false, {}, { allowed_platforms: 'amiga' }))).toEqual({ ok: false, field: 'custom_tags_extra' })
    expect(staffCustomTags(order(false, { ios_app_id: 'com.x' }, { ios_app_id: 'com.z' }))).toEqual({ ok: false, field: 'custom_tags_extra' })
    expect(staffCustomTags(order(true, { ios_app_id: 'com.x' }))).toEqual({ ok: false, field: 'custom_tags' })
  })

  /** a staff order's body with no lock tags (a subscription, with the validity it needs) */
  const staffBody = (deviceBound: boolean) => ({
    title: 'T',
    count: 1,
    client_email: 'a@example.com',
    config: { product: 'face_offline_custom', license_expire_delta: 2_592_000, device_bound: deviceBound, max_version: null, license_content: {} },
  })

  it('the body schema holds the same rule', () => {
    const body = { ...staffBody(true), custom_tags: {} }
    expect(staffLicenseBody.safeParse(body).success).toBe(true)
    const bad = staffLicenseBody.safeParse({ ...body, custom_tags_extra: { hardware_key_serial: 'true' } })
    expect(bad.success).toBe(false)
    expect(bad.error!.issues[0]).toMatchObject({ message: 'lock_options_error', path: ['custom_tags_extra'] })
  })

  it("a lock's own empty field answers its own coded error, and no lock error beside it", () => {
    const body = staffBody(false)
    for (const key of ['ios_app_id', 'android_app_id'] as const) {
      const empty = staffLicenseBody.safeParse({ ...body, custom_tags: { [key]: '  ' } })
      expect(empty.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[`custom_tags.${key}`, 'field_empty_error']])
      const long = staffLicenseBody.safeParse({ ...body, custom_tags: { [key]: 'x'.repeat(257) } })
      expect(long.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[`custom_tags.${key}`, 'max_length_error:256']])
    }
    const noPlatform = staffLicenseBody.safeParse({ ...body, custom_tags: { allowed_platforms: '' } })
    expect(noPlatform.error!.issues.map((i) => i.path.join('.'))).toEqual(['custom_tags.allowed_platforms'])
  })
})

describe('group keys: source groups (section 5)', () => {
  const g = (product: string, over: Partial<{ is_default: boolean; os_type: number | null; source_group_id: number | null }> = {}) => ({
    product,
    is_default: true,
    os_type: 1,
    source_group_id: null,
    ...over,
  })
  it('split only from a default nuitrack_subscribe or nuitrack_unlimited group', () => {
    expect(canSplitFrom(g('nuitrack_subscribe'))).toBe(true)
    expect(canSplitFrom(g('nuitrack_unlimited'))).toBe(true)
    for (const product of ['nuitrack_ai_perpetual', 'nuitrack_online', 'old', 'nuitrack_trial', 'face_online_subscribe'])
      expect(canSplitFrom(g(product))).toBe(false)
    expect(canSplitFrom(g('nuitrack_subscribe', { is_default: false }))).toBe(false)
  })
  it('a source matches its key by product and os_type', () => {
    expect(isSourceGroupOf(g('nuitrack_subscribe'), g('nuitrack_subscribe', { is_default: false }))).toBe(true)
    expect(isSourceGroupOf(g('nuitrack_subscribe'), g('nuitrack_subscribe', { os_type: 2 }))).toBe(false)
    expect(isSourceGroupOf(g('nuitrack_subscribe'), g('nuitrack_unlimited'))).toBe(false)
    expect(isSourceGroupOf(g('nuitrack_online'), g('nuitrack_online'))).toBe(false)
  })
  it('kinds: default, key (has a source), custom (a staff order)', () => {
    expect(groupKind({ is_default: true, source_group_id: null })).toBe('default')
    expect(groupKind({ is_default: false, source_group_id: 4 })).toBe('key')
    expect(groupKind({ is_default: false, source_group_id: null })).toBe('custom')
  })
})

describe('trialEnd', () => {
  const now = new Date('2026-06-10T00:00:00Z')
  const day = 86_400_000
  it('a first trial license ends its days from now; one made later ends when the trial first ended, never later', () => {
    expect(trialEnd(7, { startedAt: null, ends: [] }, now)).toEqual(new Date(now.getTime() + 7 * day))
    const first = new Date('2026-06-08T00:00:00Z')
    expect(trialEnd(7, { startedAt: new Date('2026-06-01T00:00:00Z'), ends: [first, new Date('2026-06-20T00:00:00Z')] }, now)).toEqual(first)
    // a trial whose licenses lost their end (made from its group without one) still ends from its start
    expect(trialEnd(30, { startedAt: new Date('2026-06-01T00:00:00Z'), ends: [] }, now)).toEqual(new Date('2026-07-01T00:00:00Z'))
    expect(trialEnd(null, { startedAt: null, ends: [] }, now)).toBeNull()
  })
  it('a trial of a paid product has a group of its own', () => {
    expect(trialHasOwnGroup({ tag: 'NA Trial' })).toBe(true)
    expect(trialHasOwnGroup({ tag: null })).toBe(false)
  })
})
