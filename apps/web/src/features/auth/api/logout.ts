import { api } from '../../../lib/api-client.ts'

/** GET /api/client/logout/: ends the server session (the server clears the cookies). */
export const logout = () => api.get<{ status: 'ok' }>('/api/client/logout/', { silent: true })
