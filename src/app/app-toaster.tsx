// Toasts per spec §2/§4/§9. Sonner 2's defaults already match (bottom-right, 4000 ms, three
// visible, 356 px wide, paused on hover and on a hidden tab, 45 px swipe to dismiss); they are
// written out so a library upgrade that changes them cannot change the product silently.
// The width is not a prop: sonner sets it as the --width CSS variable (356 px) itself.
import { Toaster } from 'sonner';
import { useTranslation } from 'react-i18next';
import { useTheme } from '../features/settings/hooks/use-theme';

export function AppToaster() {
  const { t } = useTranslation();
  const { resolved } = useTheme();
  return (
    <Toaster
      position="bottom-right"
      duration={4000}
      visibleToasts={3}
      theme={resolved}
      richColors
      closeButton
      containerAriaLabel={t('common.notifications')}
      toastOptions={{ closeButtonAriaLabel: t('common.close') }}
      // Above the phone's bottom tab bar.
      mobileOffset={{ bottom: 'calc(76px + env(safe-area-inset-bottom))' }}
    />
  );
}
