/**
 * The notice home shows after the locale rule sent a logged-out visitor there from a page that
 * exists only in Ukrainian (login, reset-password, provide-help, the dashboard, the admin area):
 * why, and a button that switches to Ukrainian and opens the page they wanted. Announced politely
 * (its text arrives after its live region), dismissible. Loaded only when shown (App.tsx).
 */
import { useEffect, useId, useState } from 'react';
import { useApp } from '../app/context.js';
import { Notice } from '../forms/Notice.js';
import { switchLanguage } from './LanguageSwitcher.js';
import '../forms/forms.css';
import './localeNotice.css';

export default function LocaleNotice({ wanted, onClose }: { wanted: string; onClose: () => void }) {
  const { t } = useApp();
  const titleId = useId();
  // The region is in the page first and its text follows a frame later, so screen readers
  // announce it.
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setShown(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <section className="locale-notice" aria-labelledby={titleId} data-testid="locale-notice">
      <Notice kind="info">
        {shown && (
          <>
            <p className="locale-notice__title" id={titleId}>
              {t('locale_notice.title')}
            </p>
            <p>{t('locale_notice.text')}</p>
            <div className="locale-notice__actions">
              <button type="button" className="button" onClick={() => switchLanguage('ua', wanted)}>
                {t('locale_notice.switch')}
              </button>
              <button type="button" className="button button--secondary" onClick={onClose}>
                {t('locale_notice.dismiss')}
              </button>
            </div>
          </>
        )}
      </Notice>
    </section>
  );
}
