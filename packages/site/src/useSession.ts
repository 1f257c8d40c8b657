import { useCallback, useEffect, useState } from 'react';
import { initialSession, loadSession, type Session } from './session.js';

/** Runs the start-up calls once and again on `retry()`. */
export function useSession(): Session & { retry: () => void } {
  const [session, setSession] = useState<Session>(initialSession);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    loadSession(controller.signal).then(setSession, () => {
      // Only an abort rejects, and then the component is gone or a newer attempt runs.
    });
    return () => controller.abort();
  }, [attempt]);

  const retry = useCallback(() => {
    setSession((s) => ({ ...s, status: 'loading' }));
    setAttempt((n) => n + 1);
  }, []);

  return { ...session, retry };
}
