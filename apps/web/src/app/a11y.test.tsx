import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { appRoutes } from './router.tsx'
import { makeQueryClient } from '../lib/query-client.ts'
import { faceLicenseView, mockApi, renderApp, setLogged, signedInRoutes } from '../test/utils.tsx'

/** The route table, as the app builds it. */
const table = appRoutes(makeQueryClient())

function backend() {
  mockApi(signedInRoutes({ licenses: [faceLicenseView()] }))
}

describe('document titles', () => {
  it.each([
    ['/app/login/', false, 'Sign in · 3DiVi Portal'],
    ['/app/registration/', false, 'Create an account · 3DiVi Portal'],
    ['/app/nuitrack/dashboard/', true, 'Nuitrack dashboard · 3DiVi Portal'],
    ['/app/face/dashboard/5/info/', true, 'License #5 · Face SDK · 3DiVi Portal'],
    ['/app/account/', true, 'Account · 3DiVi Portal'],
    ['/app/face/no-such-page/', true, 'Page not found · 3DiVi Portal'],
    ['/app/no-such-platform/dashboard/', true, 'Page not found · 3DiVi Portal'],
    ['/external_resource/link/x/', false, 'Page not found · 3DiVi Portal'],
  ])('%s is titled by its screen', async (path, logged, title) => {
    if (logged) setLogged()
    backend()
    renderApp(path)
    await waitFor(() => expect(document.title).toBe(title))
  })

  it('every screen route of the table names its screen', () => {
    const untitled: string[] = []
    const walk = (list: typeof table, titledAbove: boolean) => {
      for (const r of list) {
        const titled = titledAbove || (typeof r.handle === 'object' && r.handle !== null && 'title' in r.handle)
        const redirect = (r.element as { type?: { name?: string } } | undefined)?.type?.name
        if (r.path && !r.children && !titled && !['Navigate', 'RedirectKeep'].includes(redirect ?? '')) untitled.push(r.path)
        if (r.children) walk(r.children, titled && !r.path)
      }
    }
    walk(table, false)
    expect(untitled).toEqual([])
  })
})

describe('show-password toggle', () => {
  it('is in the tab order, labelled, says whether it shows, and works with Space and Enter', async () => {
    mockApi({})
    renderApp('/app/login/')
    const user = userEvent.setup()
    const password = await screen.findByLabelText(/^Password/, { selector: 'input' })
    await user.click(password)
    await user.tab()
    const toggle = screen.getByRole('button', { name: 'Show password' })
    expect(toggle).toHaveFocus()
    expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await user.keyboard(' ')
    expect(password).toHaveAttribute('type', 'text')
    expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await user.keyboard('{Enter}')
    expect(password).toHaveAttribute('type', 'password')
  })
})
