import { activationContracts } from './activation.ts'
import { authContracts, clientContracts } from './auth.ts'
import { licenseContracts } from './licenses.ts'
import { platformContracts } from './platform.ts'

/** Every API call, by name: the server serves exactly these and the web calls them. */
export const contracts = {
  ...licenseContracts,
  ...activationContracts,
  ...authContracts,
  ...clientContracts,
  ...platformContracts,
} as const
