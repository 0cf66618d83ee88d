import { licenseContracts } from './licenses.ts'

/** Every API call, by name: the server serves exactly these and the web calls them. */
export const contracts = {
  ...licenseContracts,
} as const
