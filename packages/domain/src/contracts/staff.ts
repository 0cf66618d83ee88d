import { contract } from '../contract.ts'
import { staffLicenseBody } from '../license-schemas.ts'
import { licensesSchema, titleErrors } from './licenses.ts'

export const staffContracts = {
  staffLicenseCreate: contract({
    method: 'POST',
    path: '/resource/custom/create/',
    auth: 'staff',
    tags: ['staff'],
    summary: 'Staff: create custom licenses for a client by e-mail',
    body: staffLicenseBody,
    response: { 200: licensesSchema },
    errors: ['client_not_found_by_email', 'not_enough_licenses', 'not_found', 'bad_title'],
    fieldErrors: titleErrors,
  }),
} as const
