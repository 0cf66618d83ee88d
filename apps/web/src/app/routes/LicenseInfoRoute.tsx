import { useEffect } from 'react'
import { Center } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation, useParams } from 'react-router'
import { GENERIC_MESSAGES, isOnlineLicense, type Platform } from '@portal/domain'
import { useLicense } from '../../api/licenses.ts'
import { errorStore } from '../../lib/error-store.ts'
import { paths } from '../../config/paths.ts'
import { LicenseInfo } from '../../features/licenses/components/LicenseInfo.tsx'
import { FaceActivation } from '../../features/activation/components/FaceActivation.tsx'
import { DevicesPanel } from '../../features/activation/components/DevicesPanel.tsx'
import { LicenseHistory } from '../../features/activity/components/LicenseHistory.tsx'
import { Spinner } from '../../components/Spinner.tsx'

/**
 * /{platform}/dashboard/{id}/info/: a non-numeric id or a failed load shows the error dialog and
 * goes back to the dashboard; a license of another platform goes to its own platform's page.
 */
export function LicenseInfoRoute() {
  const { t } = useTranslation()
  const { platform, id = '' } = useParams() as { platform: Platform; id: string }
  const numeric = /^\d+$/.test(id)
  const license = useLicense(numeric ? id : '0')
  const { state } = useLocation()
  const failed = !numeric || license.isError

  useEffect(() => {
    if (failed) errorStore.show({ title: GENERIC_MESSAGES.error_title, message: t('License not found'), kind: 'error' })
  }, [failed, t])

  if (failed) return <Navigate to={paths.dashboard(platform)} replace />
  if (license.isPending) {
    return (
      <Center py="xl">
        <Spinner label={t('Loading the license')} />
      </Center>
    )
  }
  const view = license.data
  if (view.type !== platform) return <Navigate to={paths.licenseInfo(view.type, view.id)} replace />
  return (
    <LicenseInfo license={view} platform={platform}>
      {/* the device API serves online licenses only: an offline license of any platform is activated here */}
      {(platform === 'face' || !isOnlineLicense(view.config)) && (
        <FaceActivation license={view} autoDownload={(state as { fromGroup?: boolean } | null)?.fromGroup === true} />
      )}
      <DevicesPanel license={view} />
      <LicenseHistory licenseId={view.id} />
    </LicenseInfo>
  )
}
