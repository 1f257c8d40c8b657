import { useEffect, useId, useRef } from 'react';
import { useApp } from '../app/context.js';
import { useStore } from 'zustand';
import { acceptInstall, dismissInstall, installPrompt } from '../pwa/install.js';

/**
 * Android (Chromium): once the browser's install-prompt event has been captured, an Add/Close
 * dialog offers to install the app. Add shows the browser's prompt; Close hides the
 * dialog for this browser session.
 */
export function InstallDialog() {
  const { t } = useApp();
  const event = useStore(installPrompt);
  const titleId = useId();
  const addRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!event) return;
    addRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') dismissInstall();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [event]);

  if (!event) return null;
  return (
    <div className="install-dialog" role="dialog" aria-labelledby={titleId}>
      <img src="/icons/icon-192.png" alt="" width="48" height="48" />
      <div className="install-dialog__body">
        <h2 id={titleId} className="install-dialog__title">
          {t('install.title')}
        </h2>
        <p>{t('install.android_text')}</p>
        <div className="install-dialog__actions">
          <button type="button" className="button button--secondary" onClick={dismissInstall}>
            {t('install.close')}
          </button>
          <button
            ref={addRef}
            type="button"
            className="button"
            onClick={() => void acceptInstall()}
          >
            {t('install.add')}
          </button>
        </div>
      </div>
    </div>
  );
}
