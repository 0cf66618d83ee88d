import type { FeedbackEmotion } from '@portal/domain'

/** Each face's mouth (and the angry one's brows), on a 24-unit face: drawn, so no emoji font is needed. */
const FEATURES: Record<FeedbackEmotion, { mouth: string; filled?: boolean; brows?: string }> = {
  angry: { mouth: 'M8 16.8q4-3.2 8 0', brows: 'M6.8 7.6l3.4 1.6M17.2 7.6l-3.4 1.6' },
  sad: { mouth: 'M8.2 16.4q3.8-2.6 7.6 0' },
  neutral: { mouth: 'M8.5 15.2h7' },
  fun: { mouth: 'M8.2 14q3.8 3 7.6 0' },
  happy: { mouth: 'M7.4 13.4q4.6 6 9.2 0z', filled: true },
}

/**
 * A face for one of the feedback widget's emotions, in the text's colour. The emoji it replaces are
 * drawn by the system's colour-emoji font, and a system without one showed some of them as empty boxes.
 */
export function EmotionFace({ emotion, className }: { emotion: FeedbackEmotion; className?: string }) {
  const f = FEATURES[emotion]
  return (
    <svg className={className} viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false" data-emotion={emotion}>
      <circle cx="12" cy="12" r="10.2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <circle cx="9" cy="10.2" r="1.2" fill="currentColor" />
      <circle cx="15" cy="10.2" r="1.2" fill="currentColor" />
      {f.brows && <path d={f.brows} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />}
      <path d={f.mouth} fill={f.filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
