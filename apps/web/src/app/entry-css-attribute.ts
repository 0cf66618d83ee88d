/**
 * The attribute that marks the entry's styles in index.html: build-entry-css.ts writes it, and
 * app/entry-styles.ts applies the links it marks. A module of its own, free of the DOM, so the build
 * (typechecked for Node) and the app share it.
 */
export const ENTRY_CSS_ATTRIBUTE = 'data-entry-css'
