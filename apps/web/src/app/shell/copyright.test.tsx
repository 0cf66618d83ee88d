import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { copyrightYear } from '../../lib/version.ts'
import { mockApi, renderApp, setLogged, signedInRoutes } from '../../test/utils.tsx'

describe('the copyright', () => {
  it("is the current UTC year: New Year's Eve in New York is already the next year", () => {
    expect(copyrightYear(new Date('2027-12-31T20:30:00-05:00'))).toBe(2028)
    expect(copyrightYear(new Date('2028-01-01T01:30:00+03:00'))).toBe(2027)
  })

  it('shows beside the version label in the side menu', async () => {
    setLogged()
    mockApi(signedInRoutes())
    renderApp('/app/account/')
    await screen.findByTestId('display-name')
    expect(screen.getByTestId('copyright')).toHaveTextContent(`© ${new Date().getUTCFullYear()} 3DiVi Inc.`)
    expect(screen.getByTestId('version')).toHaveTextContent(/^Version /)
  })
})
