import { useState } from 'react';
import { useApp, useAuth, useConfig } from '../app/context.js';
import { isIos, isStandalone } from '../pwa/install.js';
import { pushSupported, subscribeToPush } from '../pwa/push.js';

/** The project's four social networks. */
export const SOCIAL_NETWORKS = [
  { name: 'Facebook', url: 'https://www.facebook.com/poruch.app', icon: 'facebook' },
  { name: 'Instagram', url: 'https://www.instagram.com/poruch.app', icon: 'instagram' },
  { name: 'Telegram', url: 'https://t.me/poruch_app', icon: 'telegram' },
  { name: 'LinkedIn', url: 'https://www.linkedin.com/company/poruch-app', icon: 'linkedin' },
] as const;

const ICONS: Record<(typeof SOCIAL_NETWORKS)[number]['icon'], string> = {
  facebook:
    'M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.3c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.4 2.9h-2.3v7A10 10 0 0 0 22 12z',
  instagram:
    'M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10zm0 8.2a3.2 3.2 0 1 1 0-6.4 3.2 3.2 0 0 1 0 6.4zM17.3 5.5a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4zM21.9 7.1c-.1-1.6-.4-3-1.6-4.2S17.6 1.3 16 1.2C14.3 1.1 9.7 1.1 8 1.2c-1.6.1-3 .4-4.2 1.6S2.2 5.5 2.1 7.1C2 8.8 2 13.2 2.1 14.9c.1 1.6.4 3 1.6 4.2s2.6 1.5 4.2 1.6c1.7.1 6.3.1 8 0 1.6-.1 3-.4 4.2-1.6s1.5-2.6 1.6-4.2c.1-1.7.1-6.1 0-7.8zm-2.2 10.1a3.3 3.3 0 0 1-1.8 1.8c-1.3.5-4.3.4-5.8.4s-4.5.1-5.8-.4a3.3 3.3 0 0 1-1.8-1.8c-.5-1.3-.4-4.3-.4-5.7s-.1-4.5.4-5.7a3.3 3.3 0 0 1 1.8-1.8c1.3-.5 4.3-.4 5.8-.4s4.5-.1 5.8.4a3.3 3.3 0 0 1 1.8 1.8c.5 1.3.4 4.3.4 5.7s.1 4.5-.4 5.7z',
  telegram:
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm4.6 6.8-1.6 7.7c-.1.6-.5.7-1 .4l-2.6-1.9-1.3 1.2c-.1.1-.3.3-.6.3l.2-2.6 4.8-4.3c.2-.2 0-.3-.3-.1l-5.9 3.7-2.5-.8c-.6-.2-.6-.5.1-.8l9.9-3.8c.5-.2.9.1.8.9z',
  linkedin:
    'M20.4 2H3.6A1.6 1.6 0 0 0 2 3.6v16.8A1.6 1.6 0 0 0 3.6 22h16.8a1.6 1.6 0 0 0 1.6-1.6V3.6A1.6 1.6 0 0 0 20.4 2zM8 19H5V9.5h3V19zM6.5 8.2a1.7 1.7 0 1 1 0-3.5 1.7 1.7 0 0 1 0 3.5zM19 19h-3v-4.6c0-1.1 0-2.5-1.5-2.5S12.8 13 12.8 14.3V19h-3V9.5h2.8v1.3h.1a3.1 3.1 0 0 1 2.8-1.5c3 0 3.6 2 3.6 4.6V19z',
};

/**
 * The social block: links to the four networks, the iOS install tooltip ("Share, then
 * Add to Home Screen") when not installed, and, when logged in on a browser with push, a button
 * that asks for the notification permission.
 */
export function SocialBlock() {
  const services = useApp();
  const { t } = services;
  const config = useConfig();
  const loggedIn = useAuth((s) => s.status === 'logged_in');
  const [push, setPush] = useState<NotificationPermission | 'busy' | null>(null);
  const showIosHint = isIos() && !isStandalone();
  const canPush = loggedIn && !!config?.vapidPublicKey && pushSupported();

  return (
    <section className="social" aria-labelledby="social-title">
      <h2 id="social-title" className="social__title">
        {t('social.title')}
      </h2>
      <ul className="social__list">
        {SOCIAL_NETWORKS.map((n) => (
          <li key={n.name}>
            <a
              className="social__link"
              href={n.url}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t('social.link', { network: n.name })}
            >
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
                <path d={ICONS[n.icon]} fill="currentColor" />
              </svg>
            </a>
          </li>
        ))}
      </ul>
      {showIosHint && (
        <p className="social__ios-hint" role="note" data-testid="ios-install-hint">
          {t('install.ios_hint')}
        </p>
      )}
      {canPush && (
        <button
          type="button"
          className="button button--secondary social__push"
          disabled={push === 'busy' || push === 'granted'}
          onClick={() => {
            setPush('busy');
            subscribeToPush(services, config.vapidPublicKey!).then(
              (p) => {
                setPush(p);
                services.showToast({
                  severity: p === 'granted' ? 'success' : 'warn',
                  summary: t(p === 'granted' ? 'push.enabled' : 'push.denied'),
                });
              },
              () => setPush(null),
            );
          }}
        >
          {t(push === 'granted' ? 'push.enabled' : 'push.enable')}
        </button>
      )}
    </section>
  );
}
