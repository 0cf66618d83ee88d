/**
 * The lengths the message texts quote (messages.ts), apart from their rules: the texts are in every
 * first load of the web app, and importing these from licenses.ts and promo.ts took those modules,
 * the product catalogue and money's rules into it as well.
 */

/** a license's title (licenses.ts, checkTitle) */
export const LICENSE_TITLE_MAX = 256

/** a promo code (promo.ts, promoCodeField) */
export const PROMO_CODE_MAX = 64
