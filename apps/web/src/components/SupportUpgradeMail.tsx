import { Anchor, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { SUPPORT_EMAIL } from '@portal/domain'

/**
 * An upgrade done by the support team: a prefilled mail to support (the address only, not a link,
 * while the license or group is on hold).
 */
export function SupportUpgradeMail({ subject, body, onHold }: { subject: string; body: string; onHold: boolean }) {
  const { t } = useTranslation()
  const write = t('write to {{email}}', { email: SUPPORT_EMAIL })
  return (
    <Text size="sm">
      {t('This upgrade is done by our support team:')}{' '}
      {onHold ? (
        <Text span fw={600}>
          {write}
        </Text>
      ) : (
        <Anchor href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`} inherit>
          {write}
        </Anchor>
      )}
    </Text>
  )
}
