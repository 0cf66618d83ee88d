import { useEffect } from 'react'
import { Anchor, Center, Loader, Stack, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { SUPPORT_SERVICES, type SupportService } from '@portal/domain'
import { paths, supportUrl } from '../../../config/paths.ts'
import { leave } from '../../../lib/leave.ts'

const isService = (v: string | null): v is SupportService => (SUPPORT_SERVICES as readonly string[]).includes(v ?? '')

/**
 * Where the service redirect sends a visitor who was signed out: after signing in they land here and
 * go on to the service through the redirect, which now signs them in there too.
 */
export function ServiceRedirectRoute() {
  const { t } = useTranslation()
  const query = new URLSearchParams(useLocation().search)
  const service = query.get('service')
  const licenseId = /^\d{1,15}$/.test(query.get('license_id') ?? '') ? Number(query.get('license_id')) : undefined
  const target = isService(service) ? supportUrl(service, licenseId) : null
  useEffect(() => {
    if (target) leave.to(target)
  }, [target])
  return (
    <Center py="xl">
      {target ? (
        <Stack align="center" gap="sm">
          <Loader aria-label={t('Opening the service')} />
          <Text>
            {t('Taking you there…')} <Anchor href={target}>{t('Continue')}</Anchor>
          </Text>
        </Stack>
      ) : (
        <Text role="alert">
          {t('This link does not name a service we know.')} <Anchor href={paths.root}>{t('Back to the portal')}</Anchor>
        </Text>
      )}
    </Center>
  )
}
