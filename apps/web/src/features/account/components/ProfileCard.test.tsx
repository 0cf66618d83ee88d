import { createRef } from 'react'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { AppProviders } from '../../../app/providers.tsx'
import { makeQueryClient } from '../../../lib/query-client.ts'
import { profile } from '../../../test/fixtures.ts'
import { json, mockApi } from '../../../test/mock-api.ts'
import { ProfileCard } from './ProfileCard.tsx'

const corporate = profile({ options: { ...profile().client_info.options, corporate_member: true } }).client_info

/** The profile card of a corporate account, on a server that refuses the save naming `field`. */
function renderRefused(field: string) {
  const calls = mockApi({ 'POST /api/client/': () => json(400, { error_code: ERRORS.validation_failed.code, error: 'At most 30 characters', field }) })
  render(
    <AppProviders queryClient={makeQueryClient()}>
      <ProfileCard info={corporate} companyRef={createRef()} />
    </AppProviders>,
  )
  return { calls, user: userEvent.setup() }
}

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' })

describe('profile card', () => {
  it('a refused company name lands at the company’s Name input, not at the person’s', async () => {
    const { calls, user } = renderRefused('company.name')
    await user.type(input('Company name'), 'Acme')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() => expect(input('Company name')).toHaveAttribute('aria-invalid', 'true'))
    expect(input('Company name')).toHaveAccessibleDescription('At most 30 characters')
    expect(input('Name')).not.toHaveAttribute('aria-invalid', 'true')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ company: { name: 'Acme' } })
  })

  it('a refused person’s name lands at the Name input, not at the company’s', async () => {
    const { user } = renderRefused('name')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() => expect(input('Name')).toHaveAttribute('aria-invalid', 'true'))
    expect(input('Company name')).not.toHaveAttribute('aria-invalid', 'true')
  })

  it('a field the form does not hold is said above the button', async () => {
    const { user } = renderRefused('company.logo')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(ERRORS.validation_failed.message)
    expect(input('Company name')).not.toHaveAttribute('aria-invalid', 'true')
  })
})
