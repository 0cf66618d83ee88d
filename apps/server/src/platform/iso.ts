/** A timestamp as the API shows it (ISO 8601), from a Date, a database string or epoch milliseconds. */
export const iso = (d: Date | string | number | null) => (d === null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString())
