import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS, REQUEST_FILE_MAX_BYTES, formatRequestFile } from '@portal/domain'
import { AppProviders } from '../../../app/providers.tsx'
import { makeQueryClient } from '../../../lib/query-client.ts'
import { json, licenseView, mockApi } from '../../../test/utils.tsx'
import { FaceActivation } from './FaceActivation.tsx'

const license = licenseView({
  id: 5,
  type: 'face',
  title: 'Offline camera',
  token: 'AAAA-BBBB-CCCC-DDDD',
  status: 0,
  activations: [],
  data: null,
  config: { product: 'face_offline_perpetual', device_bound: true, custom_tags: {} },
})

const requestText = formatRequestFile({ serial: 'SN-1', sensor_name: 'D435', reg: null })
const file = (text: string, name = 'request.txt') => new File([text], name, { type: 'text/plain' })

function renderActivation() {
  const calls = mockApi({
    'POST /api/license/:id/activate/offline/': () =>
      json(400, { error_code: ERRORS.invalid_license_file.code, error: ERRORS.invalid_license_file.message, field: 'data' }),
  })
  render(
    <AppProviders queryClient={makeQueryClient()}>
      <FaceActivation license={license} autoDownload={false} onActivated={async () => {}} />
    </AppProviders>,
  )
  const zone = screen.getByTestId('request-file-zone')
  return { calls, zone, input: within(zone).getByLabelText('Choose a request file') as HTMLInputElement, user: userEvent.setup() }
}

describe('offline request-file picker', () => {
  it('shows a visible "Choose a request file" action on a native file input in the tab order', () => {
    const { zone, input } = renderActivation()
    expect(within(zone).getByText('Choose a request file')).toBeVisible()
    expect(input.type).toBe('file')
    expect(input.tabIndex).toBe(0)
  })

  it('asks for the request file in a sentence when none is chosen', async () => {
    const { zone, user } = renderActivation()
    await user.click(screen.getByRole('button', { name: 'Activate' }))
    expect(within(zone).getByRole('alert')).toHaveTextContent('Choose the activation request file made on the device first.')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('refuses a junk file with the server parser and its message, before any warning', async () => {
    const { zone, input, user, calls } = renderActivation()
    await user.upload(input, file('meeting notes', 'notes.txt'))
    expect(await within(zone).findByRole('alert')).toHaveTextContent(ERRORS.invalid_license_file.message)
    expect(input).toHaveAttribute('aria-invalid', 'true')
    await user.click(screen.getByRole('button', { name: 'Activate' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])
  })

  it('refuses an oversized file and more than one dropped file', async () => {
    const { zone, input, user } = renderActivation()
    await user.upload(input, file(requestText + '\n'.repeat(REQUEST_FILE_MAX_BYTES)))
    expect(await within(zone).findByRole('alert')).toHaveTextContent(ERRORS.invalid_license_file.message)
    fireEvent.drop(zone, { dataTransfer: { files: [file(requestText), file(requestText, 'b.txt')] } })
    expect(await within(zone).findByText('Choose one request file at a time.')).toBeInTheDocument()
  })

  it('takes a dropped request file, names its device, and only then warns', async () => {
    const { zone, user, calls } = renderActivation()
    fireEvent.dragOver(zone, { dataTransfer: { files: [] } })
    expect(zone).toHaveAttribute('data-dragging', 'true')
    fireEvent.drop(zone, { dataTransfer: { files: [file(requestText)] } })
    expect(await screen.findByTestId('request-file-chosen')).toHaveTextContent('request.txt: device SN-1 (D435)')
    expect(zone).not.toHaveAttribute('data-dragging')
    await user.click(screen.getByRole('button', { name: 'Activate' }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('The license will be bound to the device SN-1 (D435)')
    // the server still has the last word (the same rule): its refusal lands at the picker
    await user.click(within(dialog).getByRole('button', { name: 'Activate and download' }))
    expect(await within(zone).findByRole('alert')).toHaveTextContent(ERRORS.invalid_license_file.message)
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.url).toBe('/api/license/5/activate/offline/')
    expect(atob((post.body as { data: string }).data)).toBe(requestText)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})

describe('a license file that is ready', () => {
  it("names the license's own product, not always Face SDK", () => {
    render(
      <AppProviders queryClient={makeQueryClient()}>
        <FaceActivation
          license={licenseView({
            ...license,
            type: 'nuitrack',
            config: { product: 'nuitrack_trial' },
            data: 'bGljZW5zZQ==',
            activations: [
              {
                id: 1,
                kind: 'request_file',
                name: null,
                signature_properties: { serial: 'SN-1', sensor_name: 'Astra', reg: null },
                fingerprint: null,
                first_seen: '2026-11-22T12:00:00.000Z',
                last_seen: null,
              },
            ],
          })}
          autoDownload={false}
        />
      </AppProviders>,
    )
    expect(screen.getByText('The license file is ready. Put it next to your Nuitrack application.')).toBeVisible()
  })
})

describe('the request file’s documentation link', () => {
  it('goes to the Face SDK’s offline-license page for a Face license, and to its own platform’s documentation for another', () => {
    const { unmount } = render(
      <AppProviders queryClient={makeQueryClient()}>
        <FaceActivation license={license} autoDownload={false} />
      </AppProviders>,
    )
    expect(screen.getByRole('link', { name: 'How to make a request file' })).toHaveAttribute('href', '/external_resource/link/face_sdk_docs_offline_license/')
    unmount()
    const nuitrack = licenseView({ ...license, type: 'nuitrack', config: { product: 'nuitrack_pro_perpetual', device_bound: true, custom_tags: {} } })
    render(
      <AppProviders queryClient={makeQueryClient()}>
        <FaceActivation license={nuitrack} autoDownload={false} />
      </AppProviders>,
    )
    expect(screen.getByRole('link', { name: 'How to make a request file' })).toHaveAttribute('href', '/external_resource/link/nuitrack_docs/')
  })
})
