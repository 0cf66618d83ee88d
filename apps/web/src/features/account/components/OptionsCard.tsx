import { Card, Stack, Switch, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import type { ClientInfo, OptionKey } from '@portal/domain'
import { useUpdateClient } from '../api/account.ts'
import { saveFailed } from './save-failed.ts'

const OPTION_LABELS: Partial<Record<OptionKey, string>> = {
  balance_autofill: 'Top up the balance automatically for subscriptions',
  bills_mail: 'Send me bills by e-mail',
  news_notification: 'News of the company',
  updates_notification: 'Product updates',
}

export function OptionsCard({ info }: { info: ClientInfo }) {
  const { t } = useTranslation()
  const update = useUpdateClient()
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="options-title">
      <Stack>
        <Title order={2} size="h4" id="options-title">
          {t('Notifications and options')}
        </Title>
        {(Object.keys(OPTION_LABELS) as OptionKey[]).map((key) => (
          <Switch
            key={key}
            label={t(OPTION_LABELS[key]!)}
            checked={info.options[key]}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ options: { [key]: e.currentTarget.checked } }, { onError: saveFailed })}
          />
        ))}
      </Stack>
    </Card>
  )
}
