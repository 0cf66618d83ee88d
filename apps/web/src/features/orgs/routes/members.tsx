import { useTranslation } from 'react-i18next'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { useProfile } from '../../../lib/use-profile.ts'
import { Members } from '../components/Members.tsx'

/** /app/members/: the current organisation's members and invitations. */
export function MembersPage() {
  const { t } = useTranslation()
  const corporate = useProfile().data?.client_info.options.corporate_member ?? true
  return (
    <>
      <PageTitle>{t('Members')}</PageTitle>
      <Members corporate={corporate} />
    </>
  )
}
