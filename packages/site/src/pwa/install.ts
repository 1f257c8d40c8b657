import { createStore } from 'zustand/vanilla';

/** Chromium's `beforeinstallprompt` event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

/** The captured install-prompt event (Android/Chromium), or null. */
export const installPrompt = createStore<BeforeInstallPromptEvent | null>(() => null);

const DISMISSED_KEY = 'poruch_install_dismissed';

let captured = false;

/**
 * Captures the browser's install-prompt event, so the app shows its own Add/Close dialog
 * instead. Call it as early as possible: the event may fire before React renders.
 */
export function captureInstallPrompt(): void {
  if (captured) return;
  captured = true;
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    if (wasDismissed()) return;
    installPrompt.setState(e as BeforeInstallPromptEvent, true);
  });
  window.addEventListener('appinstalled', () => installPrompt.setState(null));
}

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Close: no install dialog again in this browser session. */
export function dismissInstall(): void {
  try {
    sessionStorage.setItem(DISMISSED_KEY, 'true');
  } catch {
    // Storage blocked: the dialog may come back on the next page load.
  }
  installPrompt.setState(null);
}

/** Add: shows the browser's own install prompt. Resolves with the user's choice. */
export async function acceptInstall(): Promise<'accepted' | 'dismissed'> {
  const event = installPrompt.getState();
  installPrompt.setState(null);
  if (!event) return 'dismissed';
  await event.prompt();
  const choice = await event.userChoice;
  return choice.outcome;
}

/** iPhone, iPod or iPad (iPadOS reports itself as a Mac with touch). */
export function isIos(nav: Navigator = navigator): boolean {
  return (
    /iPad|iPhone|iPod/.test(nav.userAgent) ||
    (nav.platform === 'MacIntel' && (nav.maxTouchPoints ?? 0) > 1)
  );
}

/** Running as an installed app (home-screen icon). */
export function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}
