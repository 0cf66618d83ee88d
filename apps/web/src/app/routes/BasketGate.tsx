import { Outlet, useParams } from 'react-router'
import { isPlatform, saleEntriesOf } from '@portal/domain'
import { NotFoundRoute } from '../../features/errors/routes/not-found.tsx'

/** The basket exists for the platforms the catalogue sells on (nuitrack, face, nuitrack-analytics); Face Machine is bought by its own upgrade. */
export const hasBasket = (platform: string | undefined) => isPlatform(platform) && platform !== 'face-machine' && saleEntriesOf(platform).length > 0

export function BasketGate() {
  const { platform } = useParams()
  return hasBasket(platform) ? <Outlet /> : <NotFoundRoute />
}
