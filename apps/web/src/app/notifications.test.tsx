import { act, render, screen, waitFor, within } from '@testing-library/react'
import { notifications } from '@mantine/notifications'
import { describe, expect, it } from 'vitest'
import { notifySuccess } from '../lib/notify.ts'
import { AppProviders } from './providers.tsx'

const roots = () => document.querySelectorAll('.mantine-Notifications-root')

describe('notifications', () => {
  it('shows a notification with a labelled close button, top right, and the next one after it', async () => {
    render(
      <AppProviders>
        <p>page</p>
      </AppProviders>,
    )

    act(() => notifySuccess('Saved', 'The title is saved.'))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Saved')
    expect(alert).toHaveTextContent('The title is saved.')
    expect(within(alert).getByRole('button', { name: 'Close' })).toBeInTheDocument()
    // top right, as before
    expect(alert.closest('[data-position]')).toHaveAttribute('data-position', 'top-right')

    act(() => notifications.clean())
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
    expect(roots().length).toBeGreaterThan(0)
    act(() => notifySuccess('Saved again'))
    expect(await screen.findByRole('alert')).toHaveTextContent('Saved again')
    act(() => notifications.clean())
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
  })
})
