import { Anchor, Box, Center, List, Paper, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PLATFORMS, PLATFORM_TITLES } from '@portal/domain'
import { paths } from '../../../config/paths.ts'

/** Unknown paths outside the sign-in family. */
export function NotFoundRoute() {
  const { t } = useTranslation()
  return (
    <Box mih="100vh" bg="gray.0" py={48} px="md">
      <Center component="main">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={480}>
          <Stack gap="md">
            <Title order={1} fz={26}>
              {t('Page not found')}
            </Title>
            <Text>{t("The page you are looking for doesn't exist. Go to one of the dashboards:")}</Text>
            <nav aria-label={t('Dashboards')}>
              <List spacing="xs">
                {PLATFORMS.map((p) => (
                  <List.Item key={p}>
                    <Anchor component={Link} to={paths.dashboard(p)}>
                      {PLATFORM_TITLES[p]}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
            </nav>
          </Stack>
        </Paper>
      </Center>
    </Box>
  )
}
