import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, mockApi, renderApp } from '../../../test/utils.tsx'

describe('Nuitrack Analytics registration', () => {
  it('tells the password rules under the field before they are broken, as the portal’s own registration does', async () => {
    mockApi({
      'GET /api/captcha/challenge/': () => json(200, { kind: 'altcha', algorithm: 'SHA-256', challenge: 'x', maxnumber: 1, salt: 's', signature: 'sig' }),
    })
    renderApp('/app/registrate/nuitrack-analytics/')
    const password = await screen.findByLabelText(/^password/i, { selector: 'input' })
    expect(password).toHaveAccessibleDescription(/8 to 256 characters: an uppercase and a lowercase letter, and a digit or a special symbol/)
  })
})
