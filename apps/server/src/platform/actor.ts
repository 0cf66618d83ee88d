import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The person acting in the current request (the session's person, not the organisation it acts
 * for), for the history's actor column. Set around every contract route's handler, so no service
 * has to pass it along and none can forget it; a job, a webhook or the CLI acts as nobody (null).
 */
const actor = new AsyncLocalStorage<number | null>()

export const actingAs = <T>(actorId: number | null, fn: () => T): T => actor.run(actorId, fn)

/** The acting person's client id, or null outside a signed-in request. */
export const currentActor = (): number | null => actor.getStore() ?? null
