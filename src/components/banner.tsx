// An inline status message (sign-in success or failure). Text only: server messages are shown as
// they arrive but never interpreted as HTML.
import { AlertIcon, CheckCircleIcon } from './icons';
import './banner.css';

interface Props {
  tone: 'success' | 'error';
  children: string;
  testId?: string;
}

export function Banner({ tone, children, testId }: Props) {
  return (
    <div className={`banner banner--${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {tone === 'error' ? <AlertIcon size={18} /> : <CheckCircleIcon size={18} />}
      <span>{children}</span>
    </div>
  );
}
