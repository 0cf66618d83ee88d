import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { json, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

const URL = 'POST /api/feedback/' as const

async function openWidget() {
  renderApp('/app/account/')
  await screen.findByTestId('display-name')
  const user = userEvent.setup()
  await user.click(screen.getByRole('button', { name: 'Feedback' }))
  return { user, dialog: await screen.findByRole('dialog', { name: 'How do you like the portal?' }) }
}

describe('the feedback widget', () => {
  it('is on a signed-in screen, sends the chosen emotion, the comment and the page, and thanks', async () => {
    setLogged()
    const calls = mockApi({ ...signedInRoutes(), [URL]: () => json(200, { status: 'ok' }) })
    const { user, dialog } = await openWidget()
    const radios = within(dialog).getAllByRole('radio')
    expect(radios.map((r) => r.getAttribute('aria-label'))).toEqual(['Angry', 'Sad', 'Neutral', 'Pleased', 'Happy'])
    // each a drawn face (an emoji needs a colour-emoji font, which some systems lack), hidden from screen readers
    expect(radios.map((r) => r.querySelector('svg[aria-hidden="true"]')?.getAttribute('data-emotion'))).toEqual(['angry', 'sad', 'neutral', 'fun', 'happy'])
    await user.click(within(dialog).getByRole('radio', { name: 'Pleased' }))
    expect(within(dialog).getByRole('radio', { name: 'Pleased' })).toHaveAttribute('aria-checked', 'true')
    const comment = within(dialog).getByLabelText('Comment (optional)')
    expect(comment).toHaveAttribute('maxlength', '500')
    await user.type(comment, 'Clear screens')
    expect(within(dialog).getByText('13 of 500 characters')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Send feedback' }))
    expect(await within(dialog).findByText('Thank you! Your feedback helps us make the portal better.')).toBeInTheDocument()
    expect(calls.filter((c) => c.url === '/api/feedback/').map((c) => c.body)).toEqual([{ score: 4, comment: 'Clear screens', page: '/app/account/' }])
    await user.click(within(dialog).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('needs an emotion: the error shows in the widget and nothing is sent', async () => {
    setLogged()
    const calls = mockApi({ ...signedInRoutes(), [URL]: () => json(200, { status: 'ok' }) })
    const { user, dialog } = await openWidget()
    await user.type(within(dialog).getByLabelText('Comment (optional)'), 'No emotion chosen')
    await user.click(within(dialog).getByRole('button', { name: 'Send feedback' }))
    const alert = within(dialog).getByRole('alert')
    expect(alert).toHaveTextContent('Please choose how you feel about the portal')
    // next to the impressions it is about, before the comment
    expect(within(dialog).getByRole('radiogroup').nextElementSibling).toBe(alert)
    expect(calls.filter((c) => c.url === '/api/feedback/')).toHaveLength(0)
  })

  it('is operable with the keyboard: arrows choose an emotion (wrapping around), Tab reaches the comment and Send', async () => {
    setLogged()
    const calls = mockApi({ ...signedInRoutes(), [URL]: () => json(200, { status: 'ok' }) })
    const { user, dialog } = await openWidget()
    within(dialog).getByRole('radio', { name: 'Angry' }).focus()
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowLeft}')
    expect(within(dialog).getByRole('radio', { name: 'Happy' })).toHaveAttribute('aria-checked', 'true')
    expect(within(dialog).getByRole('radio', { name: 'Happy' })).toHaveFocus()
    await user.tab()
    expect(within(dialog).getByLabelText('Comment (optional)')).toHaveFocus()
    await user.keyboard('Great')
    await user.tab()
    await user.tab()
    expect(within(dialog).getByRole('button', { name: 'Send feedback' })).toHaveFocus()
    await user.keyboard('{Enter}')
    await within(dialog).findByText(/Thank you/)
    expect(calls.find((c) => c.url === '/api/feedback/')?.body).toMatchObject({ score: 5, comment: 'Great' })
  })

  it('says so when the rate limit refuses it', async () => {
    setLogged()
    mockApi({ ...signedInRoutes(), [URL]: () => json(429, { error_code: ERRORS.rate_limited.code, error: ERRORS.rate_limited.message }) })
    const { user, dialog } = await openWidget()
    await user.click(within(dialog).getByRole('radio', { name: 'Sad' }))
    await user.click(within(dialog).getByRole('button', { name: 'Send feedback' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have sent a lot of feedback lately. Please try again in an hour.')
  })
})
