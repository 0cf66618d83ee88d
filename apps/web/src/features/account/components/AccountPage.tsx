import { useRef, type ReactNode } from 'react'
import { Grid, Stack } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useProfile } from '../../../lib/use-profile.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { AccountTypeCard } from './AccountTypeCard.tsx'
import { EmailCard } from './EmailCard.tsx'
import { OptionsCard } from './OptionsCard.tsx'
import { PasswordCard } from './PasswordCard.tsx'
import { ProfileCard } from './ProfileCard.tsx'

/** The account screen: its cards, each in its own file, around one profile; `children` below them. */
export function AccountPage({ children }: { children?: ReactNode }) {
  const { t } = useTranslation()
  const profile = useProfile().data!
  const info = profile.client_info
  const companyRef = useRef<HTMLDivElement>(null)
  return (
    <>
      <PageTitle>{t('Account')}</PageTitle>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <ProfileCard key={`profile-${info.options.corporate_member}`} info={info} companyRef={companyRef} />
            <OptionsCard info={info} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <AccountTypeCard info={info} onFillBilling={() => companyRef.current?.querySelector('input')?.focus()} />
            <EmailCard info={info} />
            <PasswordCard />
          </Stack>
        </Grid.Col>
        {children ? <Grid.Col span={12}>{children}</Grid.Col> : null}
      </Grid>
    </>
  )
}
