import { useEffect, useRef } from 'react'
import { Center } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { paths } from '../../../config/paths.ts'
import { clearSessionMemory, notifySession } from '../../../lib/session.ts'
import { logout } from '../api/logout.ts'
import { Spinner } from '../../../components/Spinner.tsx'

/** /app/logout/: ends the session, forgets everything cached, then goes to the login page. */
export function LogoutRoute() {
  const { t } = useTranslation()
  const qc = useQueryClient()
  const navigate = useNavigate()
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    void logout()
      .catch(() => undefined)
      .finally(() => {
        qc.clear()
        clearSessionMemory()
        notifySession()
        void navigate(paths.login, { replace: true })
      })
  }, [qc, navigate])

  return (
    <Center component="main" mih="100vh">
      <Spinner label={t('Signing out')} />
    </Center>
  )
}
