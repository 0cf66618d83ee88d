import { Button, Group, Modal, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { paths } from '../../../config/paths.ts'
import { errorStore, useErrorModalState } from '../../../lib/error-store.ts'

/** The one global error modal of section 8, fed by the API client through the error store. */
export function ErrorModal() {
  const state = useErrorModalState()
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const close = () => errorStore.close()

  // message keys and codes are translated; callers may also pass a finished text
  const message = state ? (i18n.exists(state.message) ? t(state.message) : state.message) : ''

  return (
    <Modal
      opened={state !== null}
      onClose={close}
      title={state?.title ?? t('error_title')}
      centered
      trapFocus
      returnFocus
      zIndex={400}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Text data-testid="error-modal-text">{message}</Text>
      <Group justify="flex-end" mt="lg">
        {state?.kind === 'unauthorized' ? (
          <>
            <Button variant="default" onClick={close}>
              {t('Close')}
            </Button>
            <Button
              data-autofocus
              onClick={() => {
                close()
                void navigate(paths.logout)
              }}
            >
              {t('Go to login')}
            </Button>
          </>
        ) : (
          <Button data-autofocus onClick={close}>
            {t('OK')}
          </Button>
        )}
      </Group>
    </Modal>
  )
}
