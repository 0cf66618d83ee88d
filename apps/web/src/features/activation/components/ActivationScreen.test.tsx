import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ERRORS, LICENSE_FILE_NAME, USB_SERIAL_MAX, type LicenseView } from '@portal/domain'
import { json, licenseView, mockApi, renderApp, setLogged, signedInRoutes, licenseListAnswer } from '../../../test/utils.tsx'
import { readText } from '../../../test/read-blob.ts'
import { unlabelledColumns } from '../../../test/card-table.ts'

/** jsdom cannot save files: each download's file name and text are recorded instead. */
let downloads: Promise<{ name: string; text: string }>[] = []
beforeEach(() => {
  downloads = []
  const blobs = new Map<string, Blob>()
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:${blobs.size}`
    blobs.set(url, blob)
    return url
  })
  URL.revokeObjectURL = vi.fn()
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.getAttribute('href') ?? '')
    if (blob) downloads.push(readText(blob).then((text) => ({ name: this.download, text })))
  })
})
const downloaded = () => Promise.all(downloads)

const INFO = '/app/face/dashboard/5/info/'
const device = {
  id: 1,
  kind: 'usb_token',
  name: null,
  signature_properties: { serial: 'TOKEN-77', sensor_name: null, reg: null },
  fingerprint: null,
  first_seen: '2026-11-22T12:00:00.000Z',
  last_seen: null,
}
const usbLicense = (over: Partial<LicenseView> = {}) =>
  licenseView({ id: 5, type: 'face', title: 'Door camera', config: { product: 'face_offline_perpetual', custom_tags: { hardware_key_serial: true } }, ...over })

/** One license on a server that activates and releases it. */
function serve(initial: LicenseView, answers: { activate?: () => Response; release?: () => Response } = {}) {
  let current = initial
  const calls = mockApi({
    ...signedInRoutes(),
    'GET /api/license/': (c) => licenseListAnswer([current], c.url),
    'GET /api/license/5/': () => json(200, current),
    'POST /api/license/5/activate/offline/': () =>
      answers.activate?.() ?? json(200, (current = { ...current, activations: [device], data: 'TElDRU5TRQ==', activation_date: '2026-11-22T13:00:00.000Z' })),
    'POST /api/license/5/devices/:device/release/': () => answers.release?.() ?? json(200, (current = { ...current, activations: [], data: null })),
  })
  return calls
}

const activation = () => screen.findByRole('region', { name: 'Activation' })

describe('activation screens', () => {
  it('a USB-token license asks for the serial, warns, activates and downloads the file', async () => {
    setLogged()
    const calls = serve(usbLicense())
    renderApp(INFO)
    const card = await activation()
    const user = userEvent.setup()
    await user.click(within(card).getByRole('button', { name: 'Activate' }))
    expect(within(card).getByText('Enter the serial of the USB token')).toBeInTheDocument()
    expect(within(card).getByLabelText('USB token serial')).toHaveAttribute('maxlength', String(USB_SERIAL_MAX))

    await user.type(within(card).getByLabelText('USB token serial'), ' TOKEN-77 ')
    await user.click(within(card).getByRole('button', { name: 'Activate' }))
    const warning = await screen.findByRole('dialog', { name: 'Bind the license?' })
    expect(warning).toHaveTextContent('The license will be bound to the USB token TOKEN-77.')
    await user.click(within(warning).getByRole('button', { name: 'Activate and download' }))
    await waitFor(() => expect(downloads).toHaveLength(1))
    expect(await downloaded()).toEqual([{ name: LICENSE_FILE_NAME, text: 'LICENSE' }])
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ hardware_key_serial: 'TOKEN-77' })
    expect(await within(await activation()).findByRole('button', { name: 'Download the license file' })).toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Devices' })).getByTestId('device-row')).toHaveTextContent('TOKEN-77')
  })

  it('an invalid request answer lands under the field, without the error modal', async () => {
    setLogged()
    const refusal = `The serial is at most ${USB_SERIAL_MAX} characters`
    serve(usbLicense(), { activate: () => json(400, { error_code: ERRORS.validation_failed.code, error: refusal, field: 'hardware_key_serial' }) })
    renderApp(INFO)
    const card = await activation()
    const user = userEvent.setup()
    await user.type(within(card).getByLabelText('USB token serial'), 'TOKEN-77')
    await user.click(within(card).getByRole('button', { name: 'Activate' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Bind the license?' })).getByRole('button', { name: 'Activate and download' }))
    // validation_failed is every refused field's code: the input says the server's text, which names the rule
    expect(await within(card).findByText(refusal)).toBeInTheDocument()
    expect(within(card).getByLabelText('USB token serial')).toHaveAccessibleDescription(refusal)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(downloads).toHaveLength(0)
  })

  it('releases a device after asking; the license can be activated again', async () => {
    setLogged()
    const calls = serve(usbLicense({ activations: [device], data: 'TElDRU5TRQ==' }))
    renderApp(INFO)
    const devices = await screen.findByRole('region', { name: 'Devices' })
    const user = userEvent.setup()
    await user.click(within(devices).getByRole('button', { name: 'Release' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Release this device?' })).getByRole('button', { name: 'Release' }))
    expect(await within(devices).findByText('No devices yet.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/license/5/devices/1/release/'])
    expect(within(await activation()).getByLabelText('USB token serial')).toBeInTheDocument()
  })

  it('a release over the limit shows the error modal and keeps the device', async () => {
    setLogged()
    serve(usbLicense({ activations: [device], data: 'TElDRU5TRQ==' }), {
      release: () => json(429, { error_code: ERRORS.release_limit.code, error: ERRORS.release_limit.message }),
    })
    renderApp(INFO)
    const devices = await screen.findByRole('region', { name: 'Devices' })
    const user = userEvent.setup()
    await user.click(within(devices).getByRole('button', { name: 'Release' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Release this device?' })).getByRole('button', { name: 'Release' }))
    expect(await screen.findByText(ERRORS.release_limit.message)).toBeInTheDocument()
    expect(within(devices).getByTestId('device-row')).toBeInTheDocument()
    // on a phone a device is a card headed by its name, the Release button in it, each other line named by its column
    expect(within(devices).getByRole('button', { name: 'Release' }).closest('td')).not.toHaveAttribute('data-label')
    expect(unlabelledColumns(within(devices).getByRole('table'))).toEqual(['Name', 'Actions'])
  })

  it('an online license without a device says to pass the key to the SDK, with its app lock', async () => {
    setLogged()
    serve(
      licenseView({
        id: 5,
        type: 'face',
        token: 'ONLN-5555',
        config: { product: 'face_online_custom', online: { offline_timeout: 86_400 }, custom_tags: { android_app_id: 'com.example.door' } },
      }),
    )
    renderApp(INFO)
    const card = await activation()
    expect(card).toHaveTextContent('pass the activation key ONLN-5555 to the SDK')
    expect(card).toHaveTextContent('It must also send the app id com.example.door')
    expect(within(card).queryByRole('button', { name: 'Activate' })).toBeNull()
  })
})
