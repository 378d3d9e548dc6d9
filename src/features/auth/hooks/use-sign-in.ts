// The sign-in sequence shared by the three methods: call, require a token, save the session,
// fetch the profile, then (spec §2) wait 0.5 s, announce success, fade out 0.4 s, go to /.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { isApiError } from '../../../lib/api/api-error';
import { profileQuery } from '../../../lib/session/profile';
import { saveGrant } from '../../../lib/session/session-store';
import { requireGrant } from '../model/session-grant';

export const REDIRECT_DELAY_MS = 500;
export const FADE_OUT_MS = 400;

export type SignInPhase = 'idle' | 'signing-in' | 'signed-in' | 'leaving';

export function useSignIn() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<SignInPhase>('idle');
  const timers = useRef<number[]>([]);

  useEffect(() => () => timers.current.forEach((id) => window.clearTimeout(id)), []);

  /** Runs one sign-in call; resolves with the error message to show, or null on success. */
  const signIn = useCallback(
    async (call: () => Promise<unknown>, identifier: string, fallbackKey: string): Promise<string | null> => {
      setPhase('signing-in');
      try {
        const grant = requireGrant(await call(), t('auth.noToken'));
        saveGrant(grant, grant.user?.account ?? identifier);
        try {
          await queryClient.fetchQuery(profileQuery());
        } catch {
          // The sign-in reply already carried the profile; the shell retries the lookup.
        }
      } catch (error) {
        setPhase('idle');
        return isApiError(error) && error.message ? error.message : t(fallbackKey);
      }
      setPhase('signed-in');
      timers.current.push(
        window.setTimeout(() => {
          toast.success(t('auth.loginSuccess'));
          setPhase('leaving');
          timers.current.push(window.setTimeout(() => navigate('/', { replace: true }), FADE_OUT_MS));
        }, REDIRECT_DELAY_MS),
      );
      return null;
    },
    [navigate, queryClient, t],
  );

  return { phase, signIn };
}
