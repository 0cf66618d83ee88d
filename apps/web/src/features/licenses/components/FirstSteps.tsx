import { useMemo, useState } from 'react'
import { Anchor, Button, Card, Group, Stepper, Text, Title, VisuallyHidden } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PLATFORM_TITLES, fillSkippable, firstSteps, planPriceCents, platformHasBasket, usdToCents, type FirstStepKind, type Platform } from '@portal/domain'
import { formatCents } from '../../../lib/format.ts'
import { useStartTrial } from '../../../api/license-mutations.ts'
import { useProfile } from '../../../lib/use-profile.ts'
import { openFillBalance } from '../../../lib/fill-balance.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { priceRowsOf } from '../../../lib/prices.ts'
import { paths } from '../../../config/paths.ts'
import { useFillSkipped } from './first-steps-storage.ts'

/** A trial the first steps offer: the product and tag the server creates it with. */
export interface Trial {
  product: string
  tag: string | null
  /** The button's text as an i18next key, with its values. */
  label: string
  labelValues?: Record<string, unknown>
}

/** Each step's title (an i18next key); Face Machine and Analytics start with a trial and end at work. */
const TITLES: Record<Platform, Record<FirstStepKind, string>> = {
  nuitrack: { buy: 'Get a license', fill: 'Fill the balance', success: 'Start building' },
  face: { buy: 'Get a license', fill: 'Fill the balance', success: 'Start building' },
  'face-machine': { buy: 'Start a trial', fill: 'Fill the balance', success: 'Start working' },
  'nuitrack-analytics': { buy: 'Start a trial', fill: 'Fill the balance', success: 'Start working' },
}

/**
 * The onboarding first steps (section 4): the steps of the platform and the action of the active
 * one. They advance by themselves: licenses and the balance are query data a purchase, a trial or a
 * top-up refetches.
 */
export function FirstSteps({
  platform,
  hasLicense,
  trial,
  trialUsed = false,
  docsHref,
  onHide,
}: {
  platform: Platform
  hasLicense: boolean
  /** the trial offered: only while the client has not taken it (trialOffer) */
  trial: Trial | undefined
  /** the platform has a trial and the client has taken it: say so instead of offering it */
  trialUsed?: boolean
  docsHref: string
  onHide: () => void
}) {
  const { t } = useTranslation()
  const profile = useProfile().data
  const fill = useFillSkipped(platform, profile?.client_info.email ?? '')
  const balanceCents = profile ? usdToCents(profile.client_info.balance) : 0
  const planPrice = useMemo(() => (profile ? planPriceCents(platform, priceRowsOf(profile.prices)) : null), [platform, profile])
  const view = firstSteps(platform, { hasLicense, balanceCents, planPriceCents: planPrice, fillSkipped: fill.skipped })
  const step = view.steps[view.active]!
  const finished = step.kind === 'success'

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="first-steps">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4" id="first-steps">
          {t('First steps')}
        </Title>
        <Button variant="subtle" size="xs" onClick={onHide}>
          {t('Hide')}
        </Button>
      </Group>
      {/* on success every step shows as completed */}
      <Stepper active={finished ? view.steps.length : view.active} size="sm" allowNextStepsSelect={false}>
        {/* a trial already taken is not a step to take */}
        {view.steps.map((s) => (
          <Stepper.Step key={s.kind} label={t(s.kind === 'buy' && trialUsed ? 'Get a license' : TITLES[platform][s.kind])} />
        ))}
      </Stepper>
      <div data-testid="first-step" data-step={step.kind}>
        {step.kind === 'buy' && <BuyStep platform={platform} trial={trial} trialUsed={trialUsed} />}
        {step.kind === 'fill' && (
          <FillStep
            platform={platform}
            balanceCents={balanceCents}
            planPriceCents={planPrice ?? 0}
            shortfallCents={view.shortfallCents}
            onSkip={fillSkippable(platform) ? fill.skip : undefined}
          />
        )}
        {step.kind === 'success' && (
          <>
            <Text size="sm" mt="md">
              <Trans
                defaults="You're set: your {{platform}} license is in the table below. The <docs>documentation<hidden> (opens in a new tab)</hidden></docs> shows how to start."
                values={{ platform: PLATFORM_TITLES[platform] }}
                components={{ docs: <Anchor href={docsHref} target="_blank" rel="noopener noreferrer" inherit />, hidden: <VisuallyHidden /> }}
              />
            </Text>
            <Group mt="md">
              <Button onClick={onHide}>{t('Done')}</Button>
            </Group>
          </>
        )}
      </div>
    </Card>
  )
}

/** Buy: the trial where the platform has one (it counts as getting a license), and the basket where it has one. */
function BuyStep({ platform, trial, trialUsed }: { platform: Platform; trial: Trial | undefined; trialUsed: boolean }) {
  const { t } = useTranslation()
  const startTrial = useStartTrial()
  const [starting, setStarting] = useState(false)
  const basket = platformHasBasket(platform)
  const start = async () => {
    if (!trial) return
    setStarting(true)
    try {
      await startTrial.mutateAsync({ product: trial.product, tag: trial.tag })
      notifySuccess(t('Trial started'), t('Your trial license is in the table below.'))
    } catch {
      // the error modal has told the user
    } finally {
      setStarting(false)
    }
  }
  const values = { platform: PLATFORM_TITLES[platform] }
  return (
    <>
      {trialUsed && (
        <Text size="sm" mt="md" data-testid="trial-used">
          {basket
            ? t('You have already used the free {{platform}} trial. Buy a license in the basket to go on.', values)
            : t('You have already used the free {{platform}} trial.', values)}
        </Text>
      )}
      <Text size="sm" mt="md">
        {trial && basket
          ? t('Try {{platform}} with the free trial, or buy a license in the basket: pay from the balance, by card or with PayPal.', values)
          : trial
            ? t('Start the free trial to try {{platform}}.', values)
            : t('Buy a {{platform}} license in the basket: pay from the balance, by card or with PayPal.', values)}
      </Text>
      <Group mt="md">
        {trial && (
          <Button onClick={start} loading={starting}>
            {t(trial.label, trial.labelValues ?? {})}
          </Button>
        )}
        {basket && (
          <Button component={Link} to={paths.basket(platform)} variant={trial ? 'default' : 'filled'}>
            {t('Go to the basket')}
          </Button>
        )}
      </Group>
    </>
  )
}

/** Fill: top up to the plan price (the fill-balance modal starts at the shortfall); Face SDK may skip it. */
function FillStep({
  platform,
  balanceCents,
  planPriceCents,
  shortfallCents,
  onSkip,
}: {
  platform: Platform
  balanceCents: number
  planPriceCents: number
  shortfallCents: number
  onSkip: (() => void) | undefined
}) {
  const { t } = useTranslation()
  return (
    <>
      <Text size="sm" mt="md">
        {t('A {{platform}} plan starts at {{price}} and your balance is {{balance}}: add {{shortfall}} or more to pay for it from the balance.', {
          platform: PLATFORM_TITLES[platform],
          price: formatCents(planPriceCents),
          balance: formatCents(balanceCents),
          shortfall: formatCents(shortfallCents),
        })}
        {onSkip && ` ${t('You can also pay by card or with PayPal when you buy.')}`}
      </Text>
      <Group mt="md">
        <Button onClick={() => openFillBalance({ shortfallCents })}>{t('Add funds')}</Button>
        {onSkip && (
          <Button variant="default" onClick={onSkip}>
            {t('Skip')}
          </Button>
        )}
      </Group>
    </>
  )
}
