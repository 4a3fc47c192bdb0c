import { cn } from '../../lib/cn.ts';

/** The loop mark and word mark; decorative in links that say "CampusLoop home". */
export function Logo({ className, withText = true }: { className?: string; withText?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2', className)}>
      <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#047857" />
        <path
          d="M10 16a6 6 0 0 1 10.2-4.3M22 16a6 6 0 0 1-10.2 4.3"
          fill="none"
          stroke="#fff"
          strokeWidth="2.6"
          strokeLinecap="round"
        />
        <path
          d="M20.5 8.5v3.6h-3.6M11.5 23.5v-3.6h3.6"
          fill="none"
          stroke="#fff"
          strokeWidth="2.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {/* i18n-ignore: brand */}
      {withText && <span className="text-xl font-extrabold tracking-tight text-ink">CampusLoop</span>}
    </span>
  );
}
