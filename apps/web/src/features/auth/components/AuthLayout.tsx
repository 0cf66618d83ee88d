import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Anchor, Box, Center, Paper, Stack, Text, Title } from '@mantine/core'
import { MAIN_ID, SkipLink } from '../../../components/SkipLink.tsx'

/** The centered card every sign-in family page sits in. */
export function AuthLayout({ title, subtitle, children, wide = false }: { title: string; subtitle?: string; children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation()
  return (
    <Box mih="100vh" bg="gray.0" py={48} px="md">
      <SkipLink />
      <Center component="header" mb="lg">
        <Anchor component={Link} to="/app/" underline="never" c="indigo.8" fw={800} fz={26} aria-label={t('3DiVi Portal home')}>
          3DiVi{' '}
          <Text span inherit c="dark.6">
            Portal
          </Text>
        </Anchor>
      </Center>
      <Center component="main" id={MAIN_ID} tabIndex={-1}>
        <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 32 }} w="100%" maw={wide ? 520 : 440}>
          <Stack gap="md">
            <Title order={1} fz={24}>
              {title}
            </Title>
            {subtitle ? <Text c="dimmed">{subtitle}</Text> : null}
            {children}
          </Stack>
        </Paper>
      </Center>
    </Box>
  )
}
