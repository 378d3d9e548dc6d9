// A settings field that is one labelled <select>: the label names it for screen readers and
// by a click, and each option shows its own words while the setting keeps its value.
interface Option<V extends string | number> {
  value: V;
  label: string;
}

interface Props<V extends string | number> {
  id: string;
  label: string;
  value: V;
  options: readonly Option<V>[];
  testId: string;
  onChange(value: V): void;
}

export function LabelledSelect<V extends string | number>({ id, label, value, options, testId, onChange }: Props<V>) {
  return (
    <div className="ci-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="input ci-select"
        value={value}
        data-testid={testId}
        // the chosen option's own value, so a number setting stays a number
        onChange={(event) => onChange(options[event.target.selectedIndex]!.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
