/** The small line icons of the islands' controls (decorative: each control names itself). */
const iconProps = {
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  'aria-hidden': true,
  focusable: false,
} as const;

export function PauseIcon() {
  return (
    <svg {...iconProps}>
      <path d="M8 5v14M16 5v14" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

export function PlayIcon() {
  return (
    <svg {...iconProps}>
      <path d="M7 5l12 7-12 7z" fill="currentColor" />
    </svg>
  );
}

export function ArrowIcon({ direction }: { direction: 'previous' | 'next' }) {
  return (
    <svg {...iconProps}>
      <path
        d={direction === 'next' ? 'M9 5l7 7-7 7' : 'M15 5l-7 7 7 7'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
