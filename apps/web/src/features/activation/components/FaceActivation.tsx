import { useEffect, useRef, useState } from 'react'
import { Anchor, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core'
import type { TFunction } from 'i18next'
import { Trans, useTranslation } from 'react-i18next'
import {
  DEVICE_RELEASES_PER_30_DAYS,
  PLATFORM_TITLES,
  USB_SERIAL_MAX,
  encodeBase64,
  isOnlineLicense,
  licenseLock,
  usbActivationBody,
  type LicenseView,
} from '@portal/domain'
import { fieldErrorOf } from '../../../lib/api-client.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { FormError } from '../../../components/FormError.tsx'
import { EXTERNAL, requestFileDocs } from '../../../config/paths.ts'
import { useActivateOffline } from '../../../api/license-mutations.ts'
import { downloadLicenseFile } from './download.ts'
import { NO_REQUEST_FILE, RequestFilePicker, type ChosenRequest } from './RequestFilePicker.tsx'

type Mode = 'request_file' | 'usb_token' | 'download'

/**
 * Section 2, face license activation: a request file, a USB token serial, or the file directly. The
 * device API serves online licenses only, so an offline license that has no file yet is activated
 * here with a request file, whatever it is locked to.
 */
export function activationMode(license: LicenseView): Mode {
  if (license.activations.length > 0) return 'download'
  const lock = licenseLock(license.config)
  if (lock.type === 'usb_token') return 'usb_token'
  if (lock.type === 'hardware_id' || !isOnlineLicense(license.config)) return 'request_file'
  return 'download'
}

/** What the SDK must send with the key to satisfy the license's lock. */
function sdkLockHint(license: LicenseView, t: TFunction): string {
  const lock = licenseLock(license.config)
  if (lock.type === 'ios_app_id' || lock.type === 'android_app_id')
    return ` ${t('It must also send the app id {{appId}}: the license works only in that app.', { appId: lock.app_id })}`
  return ''
}

/** `onActivated` runs after the activated license is in the cache (the route needs nothing more). */
export function FaceActivation({ license, autoDownload, onActivated }: { license: LicenseView; autoDownload: boolean; onActivated?: () => unknown }) {
  const { t } = useTranslation()
  const mode = activationMode(license)
  const onHold = license.status === 2
  const downloaded = useRef(false)
  useEffect(() => {
    // on hold every action waits, the download that follows a group's new key too
    if (autoDownload && !onHold && mode === 'download' && license.data && !downloaded.current) {
      downloaded.current = true
      downloadLicenseFile(license.data)
    }
  }, [autoDownload, onHold, mode, license.data])

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="activation-title">
      <Title order={2} size="h4" mb="md" id="activation-title">
        {t('Activation')}
      </Title>
      {mode === 'request_file' && <RequestFileActivation license={license} disabled={onHold} onActivated={onActivated} />}
      {mode === 'usb_token' && <UsbActivation license={license} disabled={onHold} onActivated={onActivated} />}
      {mode === 'download' &&
        (license.data ? (
          <Stack gap="sm">
            <Text size="sm">{t('The license file is ready. Put it next to your {{product}} application.', { product: PLATFORM_TITLES[license.type] })}</Text>
            <Group>
              <Button onClick={() => downloadLicenseFile(license.data!)} disabled={onHold}>
                {t('Download the license file')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Text size="sm">
            <Trans
              defaults="Activate online: pass the activation key <b>{{token}}</b> to the SDK, which binds the device and keeps its license file fresh."
              values={{ token: license.token }}
              components={{ b: <b /> }}
            />
            {sdkLockHint(license, t)}
          </Text>
        ))}
    </Card>
  )
}

function Warning({ opened, onClose, onConfirm, busy, what }: { opened: boolean; onClose: () => void; onConfirm: () => void; busy: boolean; what: string }) {
  const { t } = useTranslation()
  return (
    <Modal opened={opened} onClose={onClose} title={t('Bind the license?')} centered>
      <Text mb="lg">
        {t('The license will be bound to {{what}}. You can release a device yourself at most {{releases}} times in any 30 days.', {
          what,
          releases: DEVICE_RELEASES_PER_30_DAYS,
        })}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button onClick={onConfirm} loading={busy}>
          {t('Activate and download')}
        </Button>
      </Group>
    </Modal>
  )
}

function RequestFileActivation({ license, disabled, onActivated }: { license: LicenseView; disabled: boolean; onActivated?: () => unknown }) {
  const { t } = useTranslation()
  const activate = useActivateOffline()
  const [chosen, setChosen] = useState<ChosenRequest | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [warn, setWarn] = useState(false)
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    if (!chosen) return
    setBusy(true)
    try {
      const view = await activate.mutateAsync({ id: license.id, input: { data: encodeBase64(chosen.text) } })
      setWarn(false)
      if (view.data) downloadLicenseFile(view.data)
      await onActivated?.()
    } catch (err) {
      setWarn(false)
      setError(fieldErrorOf(err)?.message ?? null)
    } finally {
      setBusy(false)
    }
  }
  const device = chosen
    ? chosen.request.sensor_name
      ? t('the device {{serial}} ({{sensor}})', { serial: chosen.request.serial, sensor: chosen.request.sensor_name })
      : t('the device {{serial}}', { serial: chosen.request.serial })
    : ''
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t(
          'This license works offline on one device. Make an activation request file on the device, upload it here, and you get the license file for that device.',
        )}{' '}
        <Anchor href={requestFileDocs(license.type)} target="_blank" rel="noopener noreferrer">
          {t('How to make a request file')}
        </Anchor>
      </Text>
      <RequestFilePicker chosen={chosen} error={error} disabled={disabled} onChosen={setChosen} onError={setError} />
      <Group>
        {/* the file is checked when chosen: the warning only ever follows a valid request file */}
        <Button onClick={() => (chosen ? setWarn(true) : setError(NO_REQUEST_FILE))} disabled={disabled}>
          {t('Activate')}
        </Button>
      </Group>
      <Warning opened={warn} onClose={() => setWarn(false)} onConfirm={submit} busy={busy} what={device} />
    </Stack>
  )
}

function UsbActivation({ license, disabled, onActivated }: { license: LicenseView; disabled: boolean; onActivated?: () => unknown }) {
  const { t } = useTranslation()
  const activate = useActivateOffline()
  const form = useSchemaForm(usbActivationBody, { hardware_key_serial: '' })
  /** the warning's answer, while it asks; then whether the call it allowed is running */
  const [asking, setAsking] = useState<((go: boolean) => void) | null>(null)
  const [sending, setSending] = useState(false)
  const submit = form.submit(async (body) => {
    // nothing is sent before the warning says what the license gets bound to
    const go = await new Promise<boolean>((answer) => setAsking(() => answer))
    if (!go) return setAsking(null)
    setSending(true)
    try {
      const view = await activate.mutateAsync({ id: license.id, input: body })
      if (view.data) downloadLicenseFile(view.data)
      await onActivated?.()
    } finally {
      setSending(false)
      setAsking(null)
    }
  })
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t("This license is locked to a USB token. Enter the token's serial number to get the license file.")}{' '}
        <Anchor href={EXTERNAL.usbTokenDocs} target="_blank" rel="noopener noreferrer">
          {t('Locking to a USB token')}
        </Anchor>
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('USB token serial')} maxLength={USB_SERIAL_MAX} disabled={disabled} {...form.getInputProps('hardware_key_serial')} />
          <FormError message={form.formError} />
          <Group>
            <Button type="submit" disabled={disabled}>
              {t('Activate')}
            </Button>
          </Group>
        </Stack>
      </form>
      <Warning
        opened={asking !== null}
        onClose={() => asking?.(false)}
        onConfirm={() => asking?.(true)}
        busy={sending}
        what={t('the USB token {{serial}}', { serial: form.values.hardware_key_serial.trim() })}
      />
    </Stack>
  )
}
