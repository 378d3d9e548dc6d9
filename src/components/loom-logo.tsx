// The product mark: a woven square (warp and weft), drawn inline so it shows before any fetch.
export function LoomLogo({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="11" fill="var(--brand-600, #4f46e5)" />
      <g stroke="#fff" strokeWidth="3.2" strokeLinecap="round" fill="none">
        <path d="M12 10v20M20 10v20M28 10v20" opacity=".55" />
        <path d="M9 14.5c3 0 3-1.6 6-1.6s3 3.2 6 3.2 3-3.2 6-3.2 3 1.6 4 1.6" />
        <path d="M9 24c3 0 3 1.6 6 1.6s3-3.2 6-3.2 3 3.2 6 3.2 3-1.6 4-1.6" />
      </g>
    </svg>
  );
}
