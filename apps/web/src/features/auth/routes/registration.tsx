import { AnalyticsRegistration } from '../components/AnalyticsRegistration.tsx'
import { RegistrationForm } from '../components/RegistrationForm.tsx'
import { useSignInPlatform } from '../hooks.ts'

export function RegistrationRoute() {
  const platform = useSignInPlatform()
  return <RegistrationForm platform={platform} />
}

/** /app/registrate/nuitrack-analytics/: captcha, then exist or fill-info. */
export function AnalyticsRegistrationRoute() {
  return <AnalyticsRegistration />
}
