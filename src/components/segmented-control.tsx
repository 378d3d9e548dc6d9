// A set of mutually exclusive choices shown as one pill (tabs for sign-in modes, theme choice).
// Radio semantics: arrow keys move between options, one tab stop for the group.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import './segmented-control.css';

export interface SegmentOption<V extends string> {
  value: V;
  label: string;
  icon?: ReactNode;
}

interface Props<V extends string> {
  label: string;
  options: readonly SegmentOption<V>[];
  value: V;
  onChange: (value: V) => void;
  disabled?: boolean;
  size?: 'md' | 'sm';
  testId?: string;
}

export function SegmentedControl<V extends string>({ label, options, value, onChange, disabled, size = 'md', testId }: Props<V>) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const index = Math.max(0, options.findIndex((o) => o.value === value));

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === 'ArrowRight' || event.key === 'ArrowDown' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (index + step + options.length) % options.length;
    const option = options[next];
    if (!option) return;
    onChange(option.value);
    refs.current[next]?.focus();
  }

  return (
    <div
      className={`segmented segmented--${size}`}
      role="radiogroup"
      aria-label={label}
      onKeyDown={onKeyDown}
      data-testid={testId}
      style={{ ['--segments' as string]: options.length, ['--active' as string]: index }}
    >
      <span className="segmented__thumb" aria-hidden="true" />
      {options.map((option, i) => (
        <button
          key={option.value}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          tabIndex={option.value === value ? 0 : -1}
          disabled={disabled}
          className="segmented__option"
          onClick={() => onChange(option.value)}
        >
          {option.icon}
          <span>{option.label}</span>
        </button>
      ))}
    </div>
  );
}
