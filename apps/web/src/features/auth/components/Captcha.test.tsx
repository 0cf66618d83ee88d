import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MantineProvider } from '@mantine/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockApi } from '../../../test/utils.tsx'
import { Captcha, RECAPTCHA_SCRIPT } from './Captcha.tsx'

async function sha256Hex(text: string) {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

const show = (onToken = vi.fn()) => {
  render(
    <MantineProvider>
      <Captcha onToken={onToken} resetKey={0} />
    </MantineProvider>,
  )
  return onToken
}

afterEach(() => {
  document.head.querySelectorAll('script').forEach((s) => s.remove())
  delete window.grecaptcha
})

describe('the captcha', () => {
  it('self-hosted: ticking the box solves the proof of work and hands up the token', async () => {
    const challenge = { kind: 'altcha', algorithm: 'SHA-256', challenge: await sha256Hex('salt7'), salt: 'salt', signature: 'sig', maxnumber: 20 }
    mockApi({ 'GET /api/captcha/challenge/': () => json(200, challenge) })
    const onToken = show()
    const box = await screen.findByRole('checkbox', { name: "I'm not a robot" })
    await waitFor(() => expect(box).toBeEnabled())
    await userEvent.setup().click(box)
    await waitFor(() => expect(onToken).toHaveBeenLastCalledWith(expect.any(String)))
    const token = JSON.parse(atob(onToken.mock.calls.at(-1)![0] as string))
    expect(token).toEqual({ algorithm: 'SHA-256', challenge: challenge.challenge, number: 7, salt: 'salt', signature: 'sig' })
    expect(screen.getByText('Verified')).toBeInTheDocument()
  })

  it('reCAPTCHA when the server names it: Google renders the widget with the site key and its token is handed up', async () => {
    mockApi({ 'GET /api/captcha/challenge/': () => json(200, { kind: 'recaptcha', site_key: 'site-key-1' }) })
    const render = vi.fn((_el: HTMLElement, opts: { sitekey: string; callback: (t: string) => void }) => {
      opts.callback('google-token')
      return 1
    })
    const onToken = show()
    await waitFor(() => expect(document.head.querySelector(`script[src="${RECAPTCHA_SCRIPT}"]`)).not.toBeNull())
    window.grecaptcha = { render, reset: vi.fn() }
    await act(async () => document.head.querySelector<HTMLScriptElement>(`script[src="${RECAPTCHA_SCRIPT}"]`)!.onload!(new Event('load')))
    await waitFor(() => expect(onToken).toHaveBeenLastCalledWith('google-token'))
    expect(render.mock.calls[0]![1].sitekey).toBe('site-key-1')
    expect(screen.queryByRole('checkbox')).toBeNull()
  })

  it("shows the captcha-unavailable dialog when Google's script cannot load", async () => {
    mockApi({ 'GET /api/captcha/challenge/': () => json(200, { kind: 'recaptcha', site_key: 'site-key-1' }) })
    show()
    await waitFor(() => expect(document.head.querySelector(`script[src="${RECAPTCHA_SCRIPT}"]`)).not.toBeNull())
    await act(async () => document.head.querySelector<HTMLScriptElement>(`script[src="${RECAPTCHA_SCRIPT}"]`)!.onerror!(new Event('error')))
    const dialog = await screen.findByRole('dialog', { name: 'The captcha is unavailable' })
    await userEvent.setup().click(screen.getByRole('button', { name: 'OK' }))
    await waitFor(() => expect(dialog).not.toBeInTheDocument())
    expect(screen.getByRole('alert')).toHaveTextContent('The captcha is unavailable right now.')
  })

  it('shows the dialog when the challenge cannot be fetched', async () => {
    mockApi({ 'GET /api/captcha/challenge/': () => json(503, { error_code: 'd3fc7de6', error: 'down' }) })
    show()
    expect(await screen.findByRole('dialog', { name: 'The captcha is unavailable' })).toBeInTheDocument()
  })
})
