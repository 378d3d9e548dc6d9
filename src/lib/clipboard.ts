// Copies text for the person. navigator.clipboard exists only in a secure context; on the fair
// laptop's plain-http address (README: tablets on a LAN) the older copy command still works, run
// from the click that asked for it. Throws when neither copies.
export async function copyPlainText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  Object.assign(area.style, { position: 'fixed', top: '0', left: '0', opacity: '0', pointerEvents: 'none' });
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.append(area);
  area.select();
  try {
    // The one way to copy outside a secure context; kept behind the Clipboard API above.
    if (!document.execCommand('copy')) throw new Error('the browser refused to copy');
  } finally {
    area.remove();
    focused?.focus();
  }
}
