import { Outlet, useParams } from 'react-router'
import { isPlatform, platformHasBasket } from '@portal/domain'
import { NotFoundRoute } from '../../features/errors/routes/not-found.tsx'

/** The basket exists for the platforms the catalogue sells on (platformHasBasket: nuitrack, face, nuitrack-analytics). */
export const hasBasket = (platform: string | undefined) => isPlatform(platform) && platformHasBasket(platform)

export function BasketGate() {
  const { platform } = useParams()
  return hasBasket(platform) ? <Outlet /> : <NotFoundRoute />
}
