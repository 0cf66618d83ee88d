import { useLocation, useNavigate, useSearchParams } from 'react-router'
import { afterSignIn } from '@portal/domain'
import { external } from '../../../config/paths.ts'
import { forget, recall } from '../../../lib/session.ts'
import { LoginForm } from '../components/LoginForm.tsx'
import { useSignInPlatform, type SignInState } from '../hooks.ts'

export function LoginRoute() {
  const platform = useSignInPlatform()
  const location = useLocation()
  const [search] = useSearchParams()
  const navigate = useNavigate()

  const onSignedIn = () => {
    const state = (location.state ?? {}) as SignInState
    const target = afterSignIn({ remembered: state.from ?? recall().path, next: search.get('next'), platform })
    forget()
    void navigate(target, { replace: true })
  }
  return <LoginForm platform={platform} onSignedIn={onSignedIn} />
}

/** /app/login/nuitrack-analytics/: after sign-in the browser leaves for the analytics service. */
export function AnalyticsLoginRoute() {
  return (
    <LoginForm
      platform="nuitrack-analytics"
      analytics
      onSignedIn={() => {
        forget()
        window.location.assign(external.analyticsService)
      }}
    />
  )
}
