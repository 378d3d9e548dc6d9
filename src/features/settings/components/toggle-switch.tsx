import './toggle-switch.css';

interface Props {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  description?: string;
  testId?: string;
}

/** An on/off switch with its label; a real checkbox underneath (role="switch"). */
export function ToggleSwitch({ checked, onChange, label, description, testId }: Props) {
  return (
    <label className="toggle">
      <span className="toggle__text">
        <strong>{label}</strong>
        {description ? <small>{description}</small> : null}
      </span>
      <input type="checkbox" role="switch" checked={checked} onChange={(event) => onChange(event.target.checked)} data-testid={testId} />
      <span className="toggle__track" aria-hidden="true">
        <span className="toggle__thumb" />
      </span>
    </label>
  );
}
