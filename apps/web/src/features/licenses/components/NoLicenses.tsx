import { Alert, Anchor, Button, Stack, VisuallyHidden } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PLATFORM_TITLES, SUPPORT_SERVICE, platformHasBasket, type Platform } from '@portal/domain'
import { paths, supportUrl } from '../../../config/paths.ts'

/**
 * The empty table says where a first license comes from, true to what the screen shows. Only a client
 * without licenses sees it, so LicenseTable loads it (and react-i18next's Trans) when it is first needed.
 */
export function NoLicenses({
  platform,
  trialOffered,
  firstStepsShown,
  onShowFirstSteps,
}: {
  platform: Platform
  trialOffered: boolean
  firstStepsShown: boolean
  onShowFirstSteps: () => void
}) {
  const { t } = useTranslation()
  // the link's words sit inside each sentence, so a translation can move them
  const components = {
    support: <Anchor href={supportUrl(SUPPORT_SERVICE[platform])} target="_blank" rel="noopener noreferrer" inherit />,
    basket: <Anchor component={Link} to={paths.basket(platform)} inherit />,
    hidden: <VisuallyHidden />,
  }
  const link = '<support>contact support<hidden> (opens in a new tab)</hidden></support>'
  const text = platformHasBasket(platform) ? (
    trialOffered ? (
      firstStepsShown ? (
        <Trans
          defaults={`Licenses you get appear here. Start a trial in the first steps above or buy one in the <basket>basket</basket>; for anything else, ${link}.`}
          components={components}
        />
      ) : (
        <Trans
          defaults={`Licenses you get appear here. Start a free trial from the first steps or buy one in the <basket>basket</basket>; for anything else, ${link}.`}
          components={components}
        />
      )
    ) : (
      <Trans defaults={`Licenses you get appear here. Buy one in the <basket>basket</basket>; for a custom license, ${link}.`} components={components} />
    )
  ) : trialOffered ? (
    firstStepsShown ? (
      <Trans defaults={`Licenses you get appear here. Start with a trial in the first steps above, or ${link} to buy.`} components={components} />
    ) : (
      <Trans defaults={`Licenses you get appear here. Start a free trial from the first steps, or ${link} to buy.`} components={components} />
    )
  ) : (
    <Trans
      defaults={`Licenses you get appear here. {{platform}} licenses are issued by our sales team: ${link} to get one.`}
      values={{ platform: PLATFORM_TITLES[platform] }}
      components={components}
    />
  )
  return (
    <Alert color="gray" title={t('You have no licenses yet')}>
      {firstStepsShown ? (
        text
      ) : (
        <Stack gap="xs" align="flex-start">
          <span>{text}</span>
          <Button variant="light" size="xs" onClick={onShowFirstSteps}>
            {t('Show the first steps')}
          </Button>
        </Stack>
      )}
    </Alert>
  )
}
