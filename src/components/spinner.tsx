import './spinner.css';

/** A ring spinner; decorative — the surrounding status text is what screen readers hear. */
export function Spinner({ size = 20 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}
