import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { groupView, json, licenseView, mockFetch, profile, renderApp, setLogged } from '../../../test/utils.tsx'

describe('pre-info: generating a license from a group', () => {
  it('the last license of a group lands on its info page and stays there', async () => {
    setLogged()
    let limit = 1
    const made = licenseView({ id: 41, title: 'Face SDK offline #41', group_id: 9 })
    mockFetch((c) => {
      if (c.url === '/api/client/') return json(200, profile())
      if (c.url === '/api/group/') return json(200, { groups: [groupView({ id: 9, limit, total: 1, used_licenses: 1 - limit })] })
      if (c.url === '/api/group/9/new-license/' && c.method === 'POST') {
        limit = 0
        return json(200, made)
      }
      if (c.url === '/api/license/') return json(200, { licenses: limit ? [] : [made] })
      if (c.url === '/api/license/41/') return json(200, made)
      return json(200, {})
    })
    const app = renderApp('/app/face/dashboard/9/pre-info/')
    fireEvent.click(await screen.findByRole('button', { name: 'Generate the key' }))

    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/41/info/'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Face SDK offline #41' })).toBeInTheDocument()
    // success is said (and announced: Mantine notifications are alerts)
    expect(await screen.findByText('License generated')).toBeInTheDocument()
    // the group lists refetch (limit 0 now) and nothing moves the user on or shows an error
    await waitFor(() => expect(app.queryClient.getQueryData<{ groups: { limit: number }[] }>(['groups'])?.groups[0]?.limit).toBe(0))
    await new Promise((r) => setTimeout(r, 100))
    expect(app.location().pathname).toBe('/app/face/dashboard/41/info/')
    expect(screen.queryByText('This group has no license available to generate')).toBeNull()
  })

  it('an empty group still sends the user back to the dashboard with the reason', async () => {
    setLogged()
    mockFetch((c) => {
      if (c.url === '/api/client/') return json(200, profile())
      if (c.url === '/api/group/') return json(200, { groups: [groupView({ id: 9, limit: 0 })] })
      return json(200, { licenses: [], groups: [] })
    })
    const app = renderApp('/app/face/dashboard/9/pre-info/')
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/'))
    expect(await screen.findByText('This group has no license available to generate')).toBeInTheDocument()
  })
})
