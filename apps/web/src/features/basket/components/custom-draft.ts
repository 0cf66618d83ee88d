import { CUSTOM_FACE_COMPONENTS, DATABASE_SIZES, FACE_ALL_IN_ONE_DATABASE, type CustomFaceComponent, type CustomFaceSelection } from '@portal/domain'

/** The custom Face SDK builder's draft, kept in local storage until a purchase (spec section 2). */
const KEY = 'portal.face-custom-draft'

export const EMPTY_DRAFT: CustomFaceSelection = { components: [], database: FACE_ALL_IN_ONE_DATABASE }

export function readDraft(): CustomFaceSelection {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<CustomFaceSelection> | null
    if (!parsed || typeof parsed !== 'object') return EMPTY_DRAFT
    const components = Array.isArray(parsed.components)
      ? CUSTOM_FACE_COMPONENTS.filter((c) => (parsed.components as unknown[]).includes(c))
      : ([] as CustomFaceComponent[])
    const database = typeof parsed.database === 'number' && DATABASE_SIZES.includes(parsed.database) ? parsed.database : EMPTY_DRAFT.database
    return { components, database }
  } catch {
    return EMPTY_DRAFT
  }
}

export const saveDraft = (draft: CustomFaceSelection) => localStorage.setItem(KEY, JSON.stringify(draft))
export const clearDraft = () => localStorage.removeItem(KEY)
