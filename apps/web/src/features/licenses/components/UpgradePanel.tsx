import { Button, Card, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { aiUpgradeSoldAs, canUpgrade, showsAsTrial, shownUpgradeCost, upgradePriceCents, type LicenseView, type Platform } from '@portal/domain'
import { formatCents, formatUsd } from '../../../lib/format.ts'
import { paths } from '../../../config/paths.ts'
import { useProfile } from '../../../lib/use-profile.ts'
import { priceRowsOf } from '../../../lib/prices.ts'
import { useAnalyticsUpgradeCost } from '../../../api/analytics-upgrade-cost.ts'
import { SupportUpgradeMail } from '../../../components/SupportUpgradeMail.tsx'

/**
 * The trial a license can be upgraded from (section 4): a tagged trial whose product has a paid one.
 * The hold is not asked here: the button is shown and disabled while on hold.
 */
export const trialUpgrade = (license: LicenseView) => {
  const u = canUpgrade({ product: license.config.product, config: license.config, held_until: null }, new Date())
  return showsAsTrial(license) && u?.kind === 'trial' ? u : null
}

/** A trial's Upgrade now: to the trial-upgrade checkout; disabled while on hold. Analytics names its cost. */
export function TrialUpgradeButton({ license, platform, onHold }: { license: LicenseView; platform: Platform; onHold: boolean }) {
  const { t } = useTranslation()
  const analytics = platform === 'nuitrack-analytics'
  const offered = trialUpgrade(license) !== null
  // asked of an Analytics trial only: the server answers 400 "no upgrade" for any other license
  const cost = useAnalyticsUpgradeCost(license.id, analytics && offered && !onHold)
  if (!offered) return null
  return (
    <Stack gap={4} align="flex-start">
      {onHold ? (
        <Button disabled>{t('Upgrade now')}</Button>
      ) : (
        <Button component={Link} to={paths.upgradeCheckout(platform, 'upgrade', 'trial', license.id)}>
          {t('Upgrade now')}
        </Button>
      )}
      {analytics && cost.data && (
        <Text size="sm" data-testid="upgrade-cost">
          {t('Upgrading costs {{amount}}.', { amount: formatUsd(shownUpgradeCost(cost.data.amount)) })}
        </Text>
      )}
    </Stack>
  )
}

/**
 * Nuitrack Pro → AI (section 4): self-service leads to the upgrade checkout; bySupport is a mail to
 * support with what it costs, and no checkout. The server answers upgradeable.toAI (none while on
 * hold); the button is disabled on hold all the same.
 */
export function AiUpgradePanel({ license, platform, onHold }: { license: LicenseView; platform: Platform; onHold: boolean }) {
  const { t } = useTranslation()
  const profile = useProfile()
  const how = license.upgradeable.toAI
  if (!how) return null
  const soldAs = aiUpgradeSoldAs(license.config.product)
  const cents = soldAs && profile.data ? upgradePriceCents(soldAs, priceRowsOf(profile.data.prices)) : null
  const costText = cents !== null ? t('The upgrade to Nuitrack AI costs {{price}}.', { price: formatCents(cents) }) : null
  const subject = t('Upgrade of license #{{id}} to Nuitrack AI', { id: license.id })
  const body = t('Please upgrade my license {{token}} (#{{id}}) from Nuitrack Pro to Nuitrack AI.', { token: license.token, id: license.id })
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="upgrade-title">
      <Title order={2} size="h4" mb="md" id="upgrade-title">
        {t('Upgrade to Nuitrack AI')}
      </Title>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('Nuitrack AI adds improved tracking, object detection and pose recognition. The key and its devices stay as they are.')}</Text>
        {costText && (
          <Text size="sm" data-testid="upgrade-cost">
            {costText}
          </Text>
        )}
        {how === 'self' ? (
          onHold ? (
            <Button disabled>{t('Upgrade to AI')}</Button>
          ) : (
            <Button component={Link} to={paths.upgradeCheckout(platform, 'upgrade', 'pro', license.id)}>
              {t('Upgrade to AI')}
            </Button>
          )
        ) : (
          <SupportUpgradeMail subject={subject} body={body} onHold={onHold} />
        )}
      </Stack>
    </Card>
  )
}
