import { useState } from 'react'
import { Button, Card, Group, Modal, Table, Text, Title, VisuallyHidden } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { DEVICE_RELEASES_PER_30_DAYS, type Activation, type LicenseView } from '@portal/domain'
import { useReleaseDevice } from '../../../api/license-mutations.ts'
import { licenseActionKey, useActionHidden } from '../../../lib/hidden-actions.ts'
import { formatDayTime } from '../../../lib/format.ts'
import { useCan } from '../../../lib/use-can.ts'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'

const KIND: Record<string, string> = { online: 'Online', request_file: 'Request file', usb_token: 'USB token' }
const when = (d: string | null) => (d ? formatDayTime(d) : '—')

/** Every device of a license, each releasable (3 per license in any 30 days). */
export function DevicesPanel({ license }: { license: LicenseView }) {
  const { t } = useTranslation()
  const releaseDevice = useReleaseDevice()
  const canManage = useCan('licenses')
  // a viewer or billing member reads the devices; releasing one is the licenses' managers' (the server checks it too)
  const releaseHidden = useActionHidden(licenseActionKey(license.id, 'release-device')) || !canManage
  const [target, setTarget] = useState<Activation | null>(null)
  const [busy, setBusy] = useState(false)
  const release = async () => {
    if (!target) return
    setBusy(true)
    try {
      await releaseDevice.mutateAsync({ id: license.id, deviceId: target.id })
    } catch {
      // the error modal names the date the next release is possible
    } finally {
      setBusy(false)
      setTarget(null)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="devices-title">
      <Title order={2} size="h4" mb="xs" id="devices-title">
        {t('Devices')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('Devices this license is activated on. Release one to move the license to another device ({{releases}} releases in any 30 days).', {
          releases: DEVICE_RELEASES_PER_30_DAYS,
        })}
      </Text>
      {license.activations.length === 0 ? (
        <Text c="dimmed" py="sm">
          {t('No devices yet.')}
        </Text>
      ) : (
        <CardTable minWidth={620}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Fingerprint or serial')}</Table.Th>
              <Table.Th>{t('Kind')}</Table.Th>
              <Table.Th>{t('First seen')}</Table.Th>
              <Table.Th>{t('Last seen')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('Actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {license.activations.map((d) => (
              <Table.Tr key={d.id} data-testid="device-row">
                <Table.Td className={cardCell.lead}>{d.name ?? d.signature_properties.sensor_name ?? '—'}</Table.Td>
                <Table.Td data-label={t('Fingerprint or serial')}>
                  <Text size="sm" ff="monospace">
                    {d.kind === 'online' ? d.fingerprint : d.signature_properties.serial}
                  </Text>
                </Table.Td>
                <Table.Td data-label={t('Kind')}>{KIND[d.kind] ? t(KIND[d.kind]!) : d.kind}</Table.Td>
                <Table.Td data-label={t('First seen')}>{when(d.first_seen)}</Table.Td>
                <Table.Td data-label={t('Last seen')}>{when(d.last_seen)}</Table.Td>
                <Table.Td className={cardCell.actions}>
                  {!releaseHidden && (
                    <Button size="xs" variant="light" color="red" onClick={() => setTarget(d)} disabled={license.status === 2}>
                      {t('Release')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </CardTable>
      )}
      <Modal opened={target !== null} onClose={() => setTarget(null)} title={t('Release this device?')} centered>
        <Text mb="lg">
          {t(
            'The device stops counting against the license and can no longer get a fresh license file. This uses one of the {{releases}} releases allowed in any 30 days.',
            { releases: DEVICE_RELEASES_PER_30_DAYS },
          )}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setTarget(null)}>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={release} loading={busy}>
            {t('Release')}
          </Button>
        </Group>
      </Modal>
    </Card>
  )
}
