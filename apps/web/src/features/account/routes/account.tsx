import type { ReactNode } from 'react'
import { Center } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useProfile } from '../../../lib/use-profile.ts'
import { AccountPage } from '../components/AccountPage.tsx'
import { Spinner } from '../../../components/Spinner.tsx'

/** /app/account/: profile, company, options, password, e-mail and account type; `children` below them (the history, composed in app/routes). */
export function AccountRoute({ children }: { children?: ReactNode }) {
  const { t } = useTranslation()
  const profile = useProfile()
  if (!profile.data) {
    return (
      <Center py="xl">
        <Spinner label={t('Loading your account')} />
      </Center>
    )
  }
  return <AccountPage>{children}</AccountPage>
}
