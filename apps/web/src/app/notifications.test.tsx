import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useMutation } from '@tanstack/react-query'
import { notifications } from '@mantine/notifications'
import { describe, expect, it } from 'vitest'
import { notifySuccess } from '../lib/notify.ts'
import { AppProviders } from './providers.tsx'

const roots = () => document.querySelectorAll('.mantine-Notifications-root')

describe('notifications (their code loads with the first mutation or notification)', () => {
  it('draws nothing until the first notification, shows it with a labelled close button, and stays mounted after', async () => {
    render(
      <AppProviders>
        <p>page</p>
      </AppProviders>,
    )
    expect(roots()).toHaveLength(0)

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

  it('starts loading with the first mutation, so the component is there before the answer (and its notification) is', async () => {
    let answer: (value: string) => void = () => {}
    function Save() {
      const save = useMutation({ mutationFn: () => new Promise<string>((resolve) => (answer = resolve)), onSuccess: (title) => notifySuccess(title) })
      return <button onClick={() => save.mutate()}>Save</button>
    }
    render(
      <AppProviders>
        <Save />
      </AppProviders>,
    )
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }))
    // mounted (its empty containers drawn) while the request is still out
    await waitFor(() => expect(roots().length).toBeGreaterThan(0))
    expect(screen.queryByRole('alert')).toBeNull()
    answer('Saved')
    expect(await screen.findByRole('alert')).toHaveTextContent('Saved')
  })
})
