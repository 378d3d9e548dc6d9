import type { ReactNode } from 'react';
import './empty-state.css';

interface Props {
  icon: ReactNode;
  title: string;
  description: string;
  children?: ReactNode;
  testId?: string;
}

/** What a page or list shows before there is anything to show. */
export function EmptyState({ icon, title, description, children, testId }: Props) {
  return (
    <div className="empty-state" data-testid={testId}>
      <div className="empty-state__icon">{icon}</div>
      <h2>{title}</h2>
      <p>{description}</p>
      {children}
    </div>
  );
}
