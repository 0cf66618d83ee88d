import { Box, Button, Center, Group, Loader, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PLATFORMS } from '@portal/domain'
import { paths } from '../config/paths.ts'

/** While the first screen's code loads: a spinner a screen reader announces. */
export function RouteLoading() {
  const { t } = useTranslation()
  return (
    <Center mih="100vh" role="status" aria-busy="true" aria-live="polite">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{t('Loading…')}</VisuallyHidden>
    </Center>
  )
}

/** A chunk that failed to load (a lost connection, or a release replaced the files) or a screen that threw: the router's error element. */
export function RouteError() {
  const { t } = useTranslation()
  return (
    <Box mih="100vh" bg="gray.0" py={48} px="md">
      <Center component="main">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={480} role="alert">
          <Stack gap="md">
            <Title order={1} fz={26}>
              {t('This page could not be loaded')}
            </Title>
            <Text>{t('Check your connection and reload the page. If a new version of the portal was just released, reloading fetches it.')}</Text>
            <Group>
              <Button onClick={() => window.location.reload()}>{t('Reload')}</Button>
              <Button component={Link} to={paths.dashboard(PLATFORMS[0])} variant="default" reloadDocument>
                {t('Go to the dashboard')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Center>
    </Box>
  )
}
