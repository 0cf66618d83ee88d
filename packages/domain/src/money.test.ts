import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  MAX_TOP_UP_USD,
  centsToUsd,
  formatCents,
  formatUsd,
  groupDigits,
  isAppReturnPath,
  signedAmount,
  topUpAmount,
  topUpDefault,
  topUpMinimum,
  topUpProblem,
  transactionStatusOf,
  usdToCents,
} from './money.ts'

describe('money as integer cents', () => {
  it('converts dollars to cents at the cent, whatever the float', () => {
    expect(usdToCents(0.1 + 0.2)).toBe(30)
    expect(usdToCents(19.99)).toBe(1999)
    expect(usdToCents(1.005)).toBe(101)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (cents) => {
        expect(usdToCents(centsToUsd(cents))).toBe(cents)
      }),
    )
  })

  it('formats as $1,234.56, and below 0.0001 as $0.00', () => {
    expect(formatUsd(1234.56)).toBe('$1,234.56')
    expect(formatCents(123456789)).toBe('$1,234,567.89')
    expect(formatUsd(0.00009)).toBe('$0.00')
    expect(formatUsd(-0.00009)).toBe('$0.00')
    expect(formatUsd(-3.28)).toBe('-$3.28')
  })

  it('signs credits with a plus and debits with a minus', () => {
    expect(signedAmount({ type: 0, amount: 150 })).toBe('+$150.00')
    expect(signedAmount({ type: 1, amount: 3.28 })).toBe('-$3.28')
    expect(signedAmount({ type: 2, amount: 1000 })).toBe('-$1,000.00')
  })

  it('names transaction statuses by the spec numbers', () => {
    expect([0, 1, 2, 3].map(transactionStatusOf)).toEqual(['ok', 'pending', 'declined', 'expired'])
  })
})

describe('top-up (spec sections 5 and 9)', () => {
  it('starts at 100, or at the shortfall (rounded up to whole dollars, at least 20)', () => {
    expect(topUpDefault()).toBe(100)
    expect(topUpDefault(0)).toBe(100)
    expect(topUpDefault(500)).toBe(20)
    expect(topUpDefault(4_501)).toBe(46)
    expect(topUpDefault(25_000)).toBe(250)
  })

  it('takes at least 20 or the shortfall when larger, at most 6 digits', () => {
    expect(topUpMinimum()).toBe(20)
    expect(topUpMinimum(3_050)).toBe(31)
    expect(topUpProblem(19)).toBe('below_min')
    expect(topUpProblem(20)).toBeNull()
    expect(topUpProblem(30, 3_050)).toBe('below_min')
    expect(topUpProblem(20.5)).toBe('not_whole')
    expect(topUpProblem(MAX_TOP_UP_USD)).toBeNull()
    expect(topUpProblem(MAX_TOP_UP_USD + 1)).toBe('above_max')
  })

  it('the amount schema agrees with the rule for every integer and refuses fractions', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 2_000_000 }), (n) => {
        expect(topUpAmount.safeParse(n).success).toBe(topUpProblem(n) === null)
      }),
    )
    expect(topUpAmount.safeParse(20.5).success).toBe(false)
    expect(topUpAmount.safeParse('100').success).toBe(false)
  })
})

describe('return addresses', () => {
  it('takes paths of the app', () => {
    for (const ok of ['/app/nuitrack/dashboard/', '/app/face/balance-purchase-success/?next=%2Fapp%2Fface%2F', '/app/payment-doc/#x']) {
      expect(isAppReturnPath(ok), ok).toBe(true)
    }
  })

  it('refuses anything that could leave the portal', () => {
    for (const bad of [
      'https://evil.example/app/',
      '//evil.example/app/',
      '/app\\..\\evil',
      '/\\evil.example',
      '/app/../api/',
      '/app/%2e%2e/api/',
      '/app/%2F%2Fevil',
      '/app/nuitrack/\ud800',
      '/app/\udc00x',
      '/api/balance/',
      'javascript:alert(1)',
      '/app/\nLocation: x',
      '',
      `/app/${'x'.repeat(2001)}`,
    ]) {
      expect(isAppReturnPath(bad), bad).toBe(false)
    }
  })
})

describe('groupDigits and formatUsd', () => {
  const intl2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  const intl0 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
  // amounts as the portal has them (cents / 100), halves of a cent, and large and small numbers
  const values = [0, 0.004, 0.005, 0.015, 0.125, 0.5, 1, 9.995, 12.5, 999.999, 1000, 1234.56, 99_999.99, 100_000, 1_234_567.891, 999_999_999.995, 2 ** 40]
  for (let cents = 0; cents < 2_000_000; cents += 9_973) values.push(cents / 100, cents + 0.5)

  it('writes what Intl.NumberFormat writes for en-US', () => {
    for (const v of values) {
      expect(groupDigits(v, 2)).toBe(intl2.format(v))
      expect(groupDigits(v)).toBe(intl0.format(v))
      expect(formatUsd(v)).toBe(`$${intl2.format(v)}`)
      if (v >= 0.005) expect(formatUsd(-v)).toBe(`-$${intl2.format(v)}`)
    }
  })

  it('writes any amount in cents as Intl does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        expect(formatCents(cents)).toBe(`${cents < 0 ? '-' : ''}$${intl2.format(Math.abs(cents) / 100)}`)
      }),
    )
  })
})
