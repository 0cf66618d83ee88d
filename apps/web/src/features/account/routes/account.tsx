import { Center, Loader } from '@mantine/core'
import { useProfile } from '../../../lib/auth.ts'
import { AccountPage } from '../components/AccountPage.tsx'

/** /app/account/: profile, company, options, password, e-mail and account type. */
export function AccountRoute() {
  const profile = useProfile()
  if (!profile.data) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your account" />
      </Center>
    )
  }
  return <AccountPage />
}
