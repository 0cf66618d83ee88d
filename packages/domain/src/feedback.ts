import { z } from './zod.ts'
import { boundedInt, text } from './fields.ts'

/**
 * The floating feedback widget (spec sections 2, 3 and 5): five emotions scored 1 to 5, a comment of
 * at most 500 characters; an emotion is required.
 */
export const FEEDBACK_EMOTIONS = [
  { name: 'angry', score: 1, label: 'Angry' },
  { name: 'sad', score: 2, label: 'Sad' },
  { name: 'neutral', score: 3, label: 'Neutral' },
  { name: 'fun', score: 4, label: 'Pleased' },
  { name: 'happy', score: 5, label: 'Happy' },
] as const
export type FeedbackEmotion = (typeof FEEDBACK_EMOTIONS)[number]['name']

export const FEEDBACK_COMMENT_MAX = 500

/** The screen's check, the same one the body schema makes: an emotion, and a comment within the limit. */
export function checkFeedback(f: { score: number | null; comment: string }): 'feedback_emotion_required' | 'feedback_comment_max_length_error' | null {
  if (f.score === null || !FEEDBACK_EMOTIONS.some((e) => e.score === f.score)) return 'feedback_emotion_required'
  if (f.comment.length > FEEDBACK_COMMENT_MAX) return 'feedback_comment_max_length_error'
  return null
}

export const feedbackBody = z.object({
  score: boundedInt(1, 5).refine((n) => FEEDBACK_EMOTIONS.some((e) => e.score === n), 'feedback_emotion_required'),
  comment: text().max(FEEDBACK_COMMENT_MAX, 'feedback_comment_max_length_error').default(''),
  /** the portal path the widget was opened on, for context (optional) */
  page: text().max(300).optional(),
})
export type FeedbackBody = z.input<typeof feedbackBody>
