import { describe, expect, it } from 'vitest'
import { DEFAULT_FACE_MACHINE_CONFIGURATION } from './catalogue.ts'
import { channelPrice, defaultConfigurationLines, formatMinutes, formatPlanLimit, formatRetention, planLines, planOf } from './cloud-plans.ts'
import type { FaceMachinePlan } from './subscriptions.ts'

const DAY = 86_400

describe('Face Machine plan display (sections 3 and 9)', () => {
  it('a limit is unlimited for null or infinite, else the number', () => {
    expect(formatPlanLimit(null)).toBe('Unlimited')
    expect(formatPlanLimit('infinite')).toBe('Unlimited')
    expect(formatPlanLimit(undefined)).toBe('Unlimited')
    expect(formatPlanLimit(0)).toBe('0')
    expect(formatPlanLimit(1)).toBe('1')
    expect(formatPlanLimit(10_000)).toBe('10,000')
  })

  it('a time is months (30 days each), days, or less than a day', () => {
    expect(formatRetention(90 * DAY)).toBe('3 months')
    expect(formatRetention(30 * DAY)).toBe('1 month')
    expect(formatRetention(59 * DAY)).toBe('1 month')
    expect(formatRetention(29 * DAY)).toBe('29 days')
    expect(formatRetention(5 * DAY)).toBe('5 days')
    expect(formatRetention(DAY)).toBe('1 day')
    expect(formatRetention(DAY - 1)).toBe('less than a day')
    expect(formatRetention(0)).toBe('less than a day')
    expect(formatRetention(null)).toBe('Unlimited')
    expect(formatRetention('infinite')).toBe('Unlimited')
  })

  it('video minutes follow the same rule', () => {
    expect(formatMinutes(60 * 24 * 30)).toBe('1 month')
    expect(formatMinutes(60 * 24 * 2)).toBe('2 days')
    expect(formatMinutes(600)).toBe('less than a day')
    expect(formatMinutes('infinite')).toBe('Unlimited')
  })

  it('a plan lists its six limits', () => {
    const plan: FaceMachinePlan = {
      plan_id: 3,
      title: 'Standard',
      transactions: { per_second: 5, per_month: null },
      samples: { per_workspace: 10_000 },
      streaming_video_processing_minutes: 'infinite',
      archived_video_processing_minutes: 60 * 24 * 5,
      events_retention_period_seconds: 90 * DAY,
    }
    expect(planLines(plan).map((l) => `${l.label}: ${l.value}`)).toEqual([
      'Requests per second: 5',
      'Requests per month: Unlimited',
      'Face storage: 10,000',
      'Streaming video processing: Unlimited',
      'Archived video processing: 5 days',
      'Events retention: 3 months',
    ])
    expect(planOf([plan], 3)).toBe(plan)
    expect(planOf([plan], 4)).toBeNull()
    expect(planOf([plan], null)).toBeNull()
  })

  it('the default configuration is the one of section 9', () => {
    expect(DEFAULT_FACE_MACHINE_CONFIGURATION.requests_per_second).toBe(1)
    expect(DEFAULT_FACE_MACHINE_CONFIGURATION.face_storage).toBe(10_000)
    expect(defaultConfigurationLines().map((l) => `${l.label}: ${l.value}`)).toEqual([
      'Key: Online',
      'Requests per second: 1',
      'Face storage: 10,000',
      'Channels: Unlimited',
      'Processing functions: Unlimited',
      'Video: Streaming and archived',
    ])
  })
})

describe('per-channel price (section 9)', () => {
  it('additional devices are (paid_channels − 1) × cost; the total is cost × paid_channels', () => {
    expect(channelPrice(4900, 3)).toEqual({ channels: 3, perChannel: 4900, additional: 9800, total: 14_700 })
    expect(channelPrice(4900, 1)).toEqual({ channels: 1, perChannel: 4900, additional: 0, total: 4900 })
  })
  it('no paid_channels (or 0) is the one channel', () => {
    expect(channelPrice(4900, undefined)).toEqual({ channels: 1, perChannel: 4900, additional: 0, total: 4900 })
    expect(channelPrice(4900, 0).total).toBe(4900)
  })
})
