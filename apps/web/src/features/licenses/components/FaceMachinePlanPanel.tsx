import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { channelPrice, defaultConfigurationLines, planLines, planOf, upgradePriceCents, type LicenseView } from '@portal/domain'
import { formatCents } from '../../../lib/format.ts'
import { useProfile } from '../../../lib/use-profile.ts'
import { priceRowsOf } from '../../../lib/prices.ts'
import { useFaceMachineRates } from '../api/face-machine-rates.ts'
import { Field } from './SubscriptionPanel.tsx'
import { Spinner } from '../../../components/Spinner.tsx'

/**
 * The Face Machine plan of a license (sections 3 and 9): its limits from the rates, or the default
 * configuration when the rates do not list its plan (or the service does not answer); and the price
 * per channel, the additional devices and the total.
 */
export function FaceMachinePlanPanel({ license }: { license: LicenseView }) {
  const { t } = useTranslation()
  const rates = useFaceMachineRates()
  const profile = useProfile()
  const plan = rates.data ? planOf(rates.data.plans, license.config.plan_id) : null
  const lines = plan ? planLines(plan) : defaultConfigurationLines()
  const cost = profile.data ? upgradePriceCents(license.config.product, priceRowsOf(profile.data.prices)) : null
  const price = cost !== null ? channelPrice(cost, license.config.paid_channels) : null

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="plan-title">
      <Title order={2} size="h4" mb="md" id="plan-title">
        {t('Plan')}
      </Title>
      {rates.isPending ? (
        <Spinner label={t('Loading the plan')} size="sm" />
      ) : (
        <Stack gap="md">
          <Text fw={600} data-testid="plan-name">
            {plan ? plan.title : t('Default configuration')}
          </Text>
          {rates.isError && <Text size="sm">{t('The Face Machine service did not answer; this is the default configuration.')}</Text>}
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" verticalSpacing="sm" data-testid="plan-limits">
            {lines.map((l) => (
              <Field key={l.label} label={t(l.label)}>
                {t(l.value)}
              </Field>
            ))}
          </SimpleGrid>
          {price && (
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm" data-testid="channel-price">
              <Field label={t('Price per channel')}>{t('{{price}} a month', { price: formatCents(price.perChannel) })}</Field>
              <Field label={t('Additional devices')}>
                {t('{{n}} × {{price}} = {{total}}', { n: price.channels - 1, price: formatCents(price.perChannel), total: formatCents(price.additional) })}
              </Field>
              <Field label={t('Total')}>{t('{{price}} a month', { price: formatCents(price.total) })}</Field>
            </SimpleGrid>
          )}
        </Stack>
      )}
    </Card>
  )
}
