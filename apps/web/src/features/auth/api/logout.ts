import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /api/client/logout/: ends the server session (the server clears the cookies). */
export const logout = () => call(contractCalls.logout, {}, { silent: true })
