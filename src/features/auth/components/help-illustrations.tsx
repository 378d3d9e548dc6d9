// Pictures for the three help steps: open the enterprise chat, message the assistant bot with the
// keyword, receive the account and password. Drawn inline, themed through CSS variables.
const frame = { fill: 'var(--surface-1)', stroke: 'var(--border-2)', strokeWidth: 1.5 } as const;

export function StepOpenChat() {
  return (
    <svg viewBox="0 0 160 100" role="img" aria-hidden="true" focusable="false">
      <rect x="46" y="6" width="68" height="88" rx="10" {...frame} />
      <rect x="54" y="18" width="52" height="8" rx="4" fill="var(--surface-3)" />
      {[34, 52, 70].map((y, i) => (
        <g key={y}>
          <circle cx="62" cy={y + 4} r="6" fill={i === 0 ? 'var(--brand-500)' : 'var(--surface-3)'} />
          <rect x="72" y={y} width="28" height="4" rx="2" fill="var(--border-3)" />
          <rect x="72" y={y + 6} width="18" height="3" rx="1.5" fill="var(--border-2)" />
        </g>
      ))}
      <circle cx="118" cy="30" r="11" fill="var(--accent-500)" />
      <path d="M113 30h10M118 25v10" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function StepSendKeyword() {
  return (
    <svg viewBox="0 0 160 100" role="img" aria-hidden="true" focusable="false">
      <rect x="20" y="6" width="120" height="88" rx="10" {...frame} />
      <circle cx="36" cy="26" r="8" fill="var(--brand-500)" />
      <path d="M32 26.5h8M36 22.5v8" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      <rect x="48" y="18" width="56" height="16" rx="8" fill="var(--surface-3)" />
      <rect x="70" y="44" width="56" height="18" rx="9" fill="var(--brand-600)" />
      <text x="98" y="57" textAnchor="middle" fontSize="10" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
        KEY
      </text>
      <rect x="28" y="74" width="88" height="12" rx="6" fill="var(--surface-2)" stroke="var(--border-2)" />
      <circle cx="126" cy="80" r="7" fill="var(--brand-500)" />
      <path d="m123 80 6-3-2 3 2 3z" fill="#fff" />
    </svg>
  );
}

export function StepReceiveCredentials() {
  return (
    <svg viewBox="0 0 160 100" role="img" aria-hidden="true" focusable="false">
      <rect x="20" y="10" width="120" height="80" rx="10" {...frame} />
      <rect x="34" y="24" width="92" height="18" rx="6" fill="var(--surface-2)" />
      <circle cx="44" cy="33" r="4" fill="var(--brand-500)" />
      <rect x="54" y="30" width="50" height="6" rx="3" fill="var(--border-3)" />
      <rect x="34" y="50" width="92" height="18" rx="6" fill="var(--surface-2)" />
      {[48, 56, 64, 72, 80].map((x) => (
        <circle key={x} cx={x} cy="59" r="2.6" fill="var(--text-2)" />
      ))}
      <circle cx="122" cy="74" r="12" fill="#16a34a" />
      <path d="m116.5 74 4 4 7-8" stroke="#fff" strokeWidth="2.4" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
