import { RegistrationForm } from '../components/RegistrationForm.tsx'
import { useSignInPlatform } from '../hooks.ts'

export function RegistrationRoute() {
  const platform = useSignInPlatform()
  return <RegistrationForm platform={platform} />
}

/** /app/registrate/nuitrack-analytics/ (the captcha and the fill-info step come in a later issue). */
export function AnalyticsRegistrationRoute() {
  return <RegistrationForm platform="nuitrack-analytics" analytics />
}
