import type { ReactNode } from 'react';

interface Props {
  id: string;
  icon: ReactNode;
  title: string;
  description?: string;
  children: ReactNode;
}

/** One titled card on the settings page. */
export function SettingsSection({ id, icon, title, description, children }: Props) {
  return (
    <section className="settings-section card" aria-labelledby={`${id}-title`} data-testid={`settings-${id}`}>
      <header className="settings-section__header">
        <span className="settings-section__icon">{icon}</span>
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          {description ? <p>{description}</p> : null}
        </div>
      </header>
      <div className="settings-section__body">{children}</div>
    </section>
  );
}
