import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { CLIENT_EDITABLE_OPTIONS, OPTION_KEYS, displayName, updateClientBody } from './client.ts'
import { centsToUsd, formatUsd } from './money.ts'

describe('displayName: the full name, else the e-mail', () => {
  it('joins name and last name, trimmed', () => {
    expect(displayName({ name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' })).toBe('Ada Lovelace')
    expect(displayName({ name: '  Ada ', last_name: ' Lovelace  ', email: 'ada@example.com' })).toBe('Ada Lovelace')
    expect(displayName({ name: 'Ada', last_name: '', email: 'ada@example.com' })).toBe('Ada')
    expect(displayName({ name: '', last_name: 'Lovelace', email: 'ada@example.com' })).toBe('Lovelace')
  })

  it('falls back to the e-mail when both names are blank', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ \t]{0,5}$/), fc.stringMatching(/^[ \t]{0,5}$/), fc.emailAddress(), (n, l, email) => {
        expect(displayName({ name: n, last_name: l, email })).toBe(email)
      }),
    )
  })

  it('never answers blank when there is a non-blank name', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.emailAddress(), (n, l, email) => {
        const out = displayName({ name: n, last_name: l, email })
        if (n.trim() || l.trim()) {
          expect(out).toBe([n.trim(), l.trim()].filter(Boolean).join(' '))
        } else {
          expect(out).toBe(email)
        }
      }),
    )
  })
})

describe('money: USD with 2 decimals (section 9)', () => {
  it('formats the spec examples', () => {
    expect(formatUsd(0.00001)).toBe('$0.00')
    expect(formatUsd(12.5)).toBe('$12.50')
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(100)).toBe('$100.00')
    expect(formatUsd(3.28)).toBe('$3.28')
    expect(formatUsd(20)).toBe('$20.00')
  })

  it('any amount below 0.0001 in size shows as $0.00 (no minus sign)', () => {
    fc.assert(
      fc.property(fc.double({ min: -0.0000999, max: 0.0000999, noNaN: true }), (x) => {
        expect(formatUsd(x)).toBe('$0.00')
      }),
    )
    expect(formatUsd(-0)).toBe('$0.00')
  })

  it('whole cents format exactly, through centsToUsd, with thousands grouped as $1,234.56', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000_00 }), (cents) => {
        const expected = `$${String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, ',')}.${String(cents % 100).padStart(2, '0')}`
        expect(formatUsd(centsToUsd(cents))).toBe(expected)
      }),
    )
  })

  it('centsToUsd divides by 100 and rounds fractional cents', () => {
    expect(centsToUsd(1250)).toBe(12.5)
    expect(centsToUsd(1)).toBe(0.01)
    expect(centsToUsd(0)).toBe(0)
    expect(centsToUsd(199.6)).toBe(2)
    expect(centsToUsd(199.4)).toBe(1.99)
  })
})

describe('updateClientBody: POST /api/client/', () => {
  it('every field is optional', () => {
    expect(updateClientBody.parse({})).toEqual({})
  })

  it('checks and trims the e-mail', () => {
    expect(updateClientBody.parse({ email: ' ada@example.com ' })).toEqual({ email: 'ada@example.com' })
    expect(updateClientBody.safeParse({ email: 'ada@' }).error?.issues[0]).toMatchObject({ path: ['email'], message: 'email_validation_error' })
    expect(updateClientBody.safeParse({ email: '' }).error?.issues[0]).toMatchObject({ path: ['email'], message: 'email_empty_error' })
  })

  it('applies the profile maxlengths by field', () => {
    const cases: [string, number][] = [
      ['name', 30],
      ['last_name', 150],
      ['position', 150],
    ]
    for (const [field, max] of cases) {
      expect(updateClientBody.safeParse({ [field]: 'x'.repeat(max) }).success, field).toBe(true)
      expect(updateClientBody.safeParse({ [field]: 'x'.repeat(max + 1) }).error?.issues[0], field).toMatchObject({
        path: [field],
        message: `max_length_error:${max}`,
      })
    }
    expect(updateClientBody.safeParse({ phone: '1'.repeat(30) }).success).toBe(true)
    expect(updateClientBody.safeParse({ phone: '1'.repeat(31) }).error?.issues[0]).toMatchObject({ path: ['phone'], message: 'max_length_error:30' })
    expect(updateClientBody.parse({ name: '  Ada  ' })).toEqual({ name: 'Ada' })
  })

  it('takes a partial company with the company maxlengths', () => {
    expect(updateClientBody.parse({ company: { site: ' acme.example ' } })).toEqual({ company: { site: 'acme.example' } })
    const cases: [string, number][] = [
      ['name', 30],
      ['address', 999],
      ['vat', 150],
      ['type', 150],
      ['site', 150],
    ]
    for (const [field, max] of cases) {
      expect(updateClientBody.safeParse({ company: { [field]: 'x'.repeat(max) } }).success, field).toBe(true)
      expect(updateClientBody.safeParse({ company: { [field]: 'x'.repeat(max + 1) } }).error?.issues[0], field).toMatchObject({
        path: ['company', field],
        message: `max_length_error:${max}`,
      })
    }
  })

  it('options: the client may set its own, not facesdk_allow_subscribe (refused, not ignored)', () => {
    expect(CLIENT_EDITABLE_OPTIONS).not.toContain('facesdk_allow_subscribe')
    expect([...CLIENT_EDITABLE_OPTIONS, 'facesdk_allow_subscribe'].sort()).toEqual([...OPTION_KEYS].sort())
    for (const k of CLIENT_EDITABLE_OPTIONS) expect(updateClientBody.parse({ options: { [k]: true } })).toEqual({ options: { [k]: true } })
    expect(updateClientBody.safeParse({ options: { facesdk_allow_subscribe: true } }).success).toBe(false)
    expect(updateClientBody.safeParse({ options: { bills_mail: 'yes' } }).success).toBe(false)
  })
})
