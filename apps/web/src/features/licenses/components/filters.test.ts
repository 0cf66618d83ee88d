import { describe, expect, it } from 'vitest'
import { STATUS_TABS, buildRows, productMatches } from './filters.ts'
import type { GroupView, LicenseView } from '@portal/domain'
import { groupView, licenseView } from '../../../test/fixtures.ts'

const lic = (id: number, product: string, status: LicenseView['state'], type: LicenseView['type'] = 'nuitrack') =>
  licenseView({ id, type, license_status: status === 'paused' ? 'new' : status, state: status, is_trial: false, config: { product } })
const grp = (id: number, limit: number, holded = 0) =>
  groupView({ id, type: 'nuitrack', is_default: true, limit, holded_limit: holded, product: 'nuitrack_subscribe' })

describe('dashboard rows', () => {
  it('puts group slots first and keeps only the platform', () => {
    const rows = buildRows('nuitrack', [lic(1, 'old', 'active'), lic(2, 'face_online_subscribe', 'new', 'face')], [grp(9, 3), grp(10, 0), grp(11, 0, 2)])
    expect(rows.map((r) => (r.kind === 'slot' ? `g${r.group.id}:${r.status}` : `l${r.license.id}`))).toEqual(['g9:new', 'g11:holded', 'l1'])
  })

  it("shows the slots of a staff order's own group, not those of a group key", () => {
    const custom = { ...grp(12, 1), is_default: false, source_group_id: null } as GroupView
    const key = { ...grp(13, 4), is_default: false, source_group_id: 9 } as GroupView
    const rows = buildRows('nuitrack', [], [grp(9, 1), custom, key])
    expect(rows.map((r) => (r.kind === 'slot' ? r.group.id : null))).toEqual([9, 12])
  })

  it('matches the product filters of section 2', () => {
    expect(productMatches('nuitrack_trial', 'nuitrack_trial', true)).toBe(true)
    expect(productMatches('nuitrack_online', 'nuitrack_ai_subscription_monthly', false)).toBe(true)
    expect(productMatches('nuitrack_online', 'old', false)).toBe(false)
    expect(productMatches('old', 'old', false)).toBe(true)
    expect(productMatches('custom', 'face_offline_custom', false)).toBe(true)
    expect(productMatches('face_trial_tag', 'fmc_subscribe', true)).toBe(true)
    expect(productMatches('face_online_sub', 'face_online_subscribe', false)).toBe(true)
  })

  it('Perpetual holds every perpetual product, AI perpetual included; Pro and AI holds the rest but trials', () => {
    for (const p of ['old', 'nuitrack_ai_perpetual', 'nuitrack_unlimited']) {
      expect(productMatches('old', p, false)).toBe(true)
      expect(productMatches('nuitrack_online', p, false)).toBe(false)
    }
    for (const p of ['nuitrack_ai_subscription_monthly', 'nuitrack_online_subscription_yearly', 'nuitrack_subscribe', 'nuitrack_online']) {
      expect(productMatches('old', p, false)).toBe(false)
      expect(productMatches('nuitrack_online', p, false)).toBe(true)
    }
    expect(productMatches('nuitrack_online', 'nuitrack_trial', true)).toBe(false)
    expect(productMatches('custom', 'face_offline_perpetual', false)).toBe(true)
    expect(productMatches('custom', 'face_online_subscribe', false)).toBe(false)
  })

  it('a paused license is filed under its shown state, and the cloud platforms have a Paused tab', () => {
    const rows = buildRows('face-machine', [lic(3, 'fmc_subscribe', 'paused', 'face-machine')], [])
    expect(rows[0]!.status).toBe('paused')
    expect(STATUS_TABS('face-machine')).toContain('paused')
    expect(STATUS_TABS('nuitrack')).not.toContain('paused')
  })
})
