import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { faceGroupView, faceLicenseView, json, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'

describe('pre-info: generating a license from a group', () => {
  it('the last license of a group lands on its info page and stays there', async () => {
    setLogged()
    let limit = 1
    const made = faceLicenseView({ id: 41, title: 'Face SDK offline #41', group_id: 9 })
    mockApi({
      ...signedInRoutes(),
      'GET /api/group/': () => json(200, { groups: [faceGroupView({ limit, total: 1, used_licenses: 1 - limit, has_available_license: limit > 0 })] }),
      'POST /api/group/9/new-license/': () => {
        limit = 0
        return json(200, made)
      },
      'GET /api/license/': () => json(200, { licenses: limit ? [] : [made] }),
      'GET /api/license/41/': () => json(200, made),
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
    mockApi(signedInRoutes({ groups: [faceGroupView({ limit: 0, has_available_license: false })] }))
    const app = renderApp('/app/face/dashboard/9/pre-info/')
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/'))
    expect(await screen.findByText('This group has no license available to generate')).toBeInTheDocument()
  })
})
