import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
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

  it('asks for consent with an empty box and a link to the privacy policy, and refuses to go on without it', async () => {
    const calls = mockApi({
      'GET /api/captcha/challenge/': () => json(200, { kind: 'altcha', algorithm: 'SHA-256', challenge: 'x', maxnumber: 1, salt: 's', signature: 'sig' }),
    })
    renderApp('/app/registrate/nuitrack-analytics/')
    const box = await screen.findByRole('checkbox', { name: 'I agree to the privacy policy' })
    expect(box).not.toBeChecked()
    const link = screen.getByRole('link', { name: 'privacy policy' })
    expect(link).toHaveAttribute('href', '/external_resource/link/privacy_policy/')
    expect(link).toHaveAttribute('target', '_blank')
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('Please accept the privacy policy')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])
    await user.click(box)
    expect(box).toBeChecked()
    expect(screen.queryByText('Please accept the privacy policy')).not.toBeInTheDocument()
  })
})
