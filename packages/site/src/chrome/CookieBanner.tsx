import { useEffect, useId, useRef, useState } from 'react';
import {
  acceptAllCookies,
  readCookieConsent,
  rejectCookies,
  saveCookieConsent,
  type CookieConsent,
} from '@poruch/core';
import { useApp, useConfig } from '../app/context.js';
import { Link } from '../router/index.js';
import { startAnalytics, stopAnalytics } from './analytics.js';

/**
 * The cookie banner and its preferences dialog (docs/product.md, Cookie consent). It shows until
 * the essentials flag is stored. Analytics and tag manager load only once the visitor has
 * consented (accept, or save with analytics on); the analytics checkbox is on by default when
 * nothing is stored. Reject (or save with analytics off) removes the scripts and their cookies.
 */
export function CookieBanner() {
  const { t } = useApp();
  const config = useConfig();
  const [consent, setConsent] = useState<CookieConsent>(() => readCookieConsent());
  const [prefsOpen, setPrefsOpen] = useState(false);

  useEffect(() => {
    if (!config) return;
    if (consent.decided && consent.analytics) startAnalytics(config);
    else if (consent.decided) stopAnalytics(config);
  }, [config, consent]);

  useEffect(() => {
    document.body.classList.toggle('has-cookie-banner', !consent.decided);
  }, [consent.decided]);

  if (consent.decided) return null;
  return (
    <>
      <section
        className="cookie-banner"
        aria-label={t('cookies.preferences_header')}
        data-testid="cookie-banner"
      >
        <p className="cookie-banner__text">
          {t('cookies.text')} <Link to="/privacy-policy">{t('cookies.privacy_policy')}</Link>
        </p>
        <div className="cookie-banner__actions">
          <button type="button" className="button button--ghost" onClick={() => setPrefsOpen(true)}>
            {t('cookies.preferences')}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setConsent(rejectCookies())}
          >
            {t('cookies.reject')}
          </button>
          <button type="button" className="button" onClick={() => setConsent(acceptAllCookies())}>
            {t('cookies.accept')}
          </button>
        </div>
      </section>
      {prefsOpen && (
        <CookiePreferences
          initialAnalytics={consent.analytics}
          onClose={() => setPrefsOpen(false)}
          onSave={(analytics) => {
            setPrefsOpen(false);
            setConsent(saveCookieConsent(analytics));
          }}
        />
      )}
    </>
  );
}

function CookiePreferences({
  initialAnalytics,
  onClose,
  onSave,
}: {
  initialAnalytics: boolean;
  onClose: () => void;
  onSave: (analytics: boolean) => void;
}) {
  const { t } = useApp();
  const [analytics, setAnalytics] = useState(initialAnalytics);
  const titleId = useId();
  const essentialsId = useId();
  const analyticsId = useId();
  const firstRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    firstRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div
      className="dialog-mask"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {t('cookies.preferences_header')}
          </h2>
          <button
            type="button"
            className="dialog__close"
            aria-label={t('common.close')}
            onClick={onClose}
          >
            ×
          </button>
        </div>
        <div className="check">
          <input id={essentialsId} type="checkbox" checked disabled readOnly />
          <label htmlFor={essentialsId}>
            <strong>{t('cookies.essentials')}</strong>
            <span className="check__hint">{t('cookies.essentials_description')}</span>
          </label>
        </div>
        <div className="check">
          <input
            ref={firstRef}
            id={analyticsId}
            type="checkbox"
            checked={analytics}
            onChange={(e) => setAnalytics(e.target.checked)}
          />
          <label htmlFor={analyticsId}>
            <strong>{t('cookies.analytics')}</strong>
            <span className="check__hint">{t('cookies.analytics_description')}</span>
          </label>
        </div>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={() => onSave(analytics)}>
            {t('cookies.save')}
          </button>
        </div>
      </div>
    </div>
  );
}
