/** The catalogue's prices as the other modules read them (a basket, a renewal, an upgrade, the profile). */
export { listPriceRows, listPrices } from './queries.ts'
