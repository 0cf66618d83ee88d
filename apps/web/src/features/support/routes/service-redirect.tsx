import { useEffect } from 'react'
import { Anchor, Center, Stack, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { SUPPORT_SERVICES, type SupportService } from '@portal/domain'
import { external, paths, supportUrl } from '../../../config/paths.ts'
import { leave } from '../../../lib/leave.ts'
import { Spinner } from '../../../components/Spinner.tsx'

const isService = (v: string | null): v is SupportService => (SUPPORT_SERVICES as readonly string[]).includes(v ?? '')

/** The helpdesk's sign-on request a signed-out visitor left for the sign-in; the server checks what it names. */
const HELPDESK_PARAMS = ['client_id', 'state', 'nonce', 'redirect_uri', 'response_type', 'scope']
function helpdeskAuthorize(raw: string | null): string | null {
  if (raw === null) return null
  const given = new URLSearchParams(raw)
  if ([...given.keys()].some((k) => !HELPDESK_PARAMS.includes(k))) return null
  return `${external.helpdeskAuthorize}?${given.toString()}`
}

/**
 * Where the service redirect sends a visitor who was signed out: after signing in they land here and
 * go on to the service through the redirect, which now signs them in there too. A visitor the
 * helpdesk sent to sign in (`helpdesk`: its request) goes back to the helpdesk's sign-on call.
 */
export function ServiceRedirectRoute() {
  const { t } = useTranslation()
  const query = new URLSearchParams(useLocation().search)
  const service = query.get('service')
  const licenseId = /^\d{1,15}$/.test(query.get('license_id') ?? '') ? Number(query.get('license_id')) : undefined
  const target = helpdeskAuthorize(query.get('helpdesk')) ?? (isService(service) ? supportUrl(service, licenseId) : null)
  useEffect(() => {
    if (target) leave.to(target)
  }, [target])
  return (
    <Center py="xl">
      {target ? (
        <Stack align="center" gap="sm">
          <Spinner label={t('Opening the service')} />
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
