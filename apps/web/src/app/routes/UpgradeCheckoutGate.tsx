import { useParams } from 'react-router'
import { isPlatform } from '@portal/domain'
import { NotFoundRoute } from '../../features/errors/routes/not-found.tsx'
import { UpgradeCheckoutRoute } from '../../features/basket/routes/upgrade-checkout.tsx'
import { UPGRADE_PLATFORMS, isCheckoutType, isUpgradeLicenseType } from '../../features/basket/components/upgrade-plan.ts'

/**
 * The upgrade checkout's segments: a platform with upgrades (nuitrack, face-machine,
 * nuitrack-analytics), upgrade or upgrade-y, pro or trial. Any other value is a page that does not
 * exist (the not-found screen with its links to the platforms), as the basket's gate answers.
 */
export function UpgradeCheckoutGate() {
  const { platform, checkoutType, licenseType, toUpgradeId: id = '' } = useParams()
  if (!isPlatform(platform) || !UPGRADE_PLATFORMS.includes(platform) || !isCheckoutType(checkoutType) || !isUpgradeLicenseType(licenseType)) {
    return <NotFoundRoute />
  }
  // keyed: another license's checkout starts with a fresh form
  return (
    <UpgradeCheckoutRoute
      key={`${platform}/${checkoutType}/${licenseType}/${id}`}
      platform={platform}
      checkoutType={checkoutType}
      licenseType={licenseType}
      id={id}
    />
  )
}
