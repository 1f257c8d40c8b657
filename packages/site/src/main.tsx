import { captureInstallPrompt } from './pwa/install.js';
import './styles.css';

// The install-prompt event may fire before the app starts.
captureInstallPrompt();

/**
 * Starts the app (start.tsx) once the browser has painted the first screen (the prerendered page,
 * or the server's): until then neither its modules' evaluation nor their downloads compete with
 * the page. Then every chunk the page's first screen needs, which the prerendered page names
 * (`<meta name="poruch-chunks">`, scripts/prerender.mjs), is preloaded at once, so they arrive
 * side by side instead of one import after another.
 */
function startAfterFirstPaint(): void {
  const chunks = document.querySelector<HTMLMetaElement>('meta[name="poruch-chunks"]');
  for (const href of chunks?.content.split(' ').filter(Boolean) ?? []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import('./start.js');
}

/** Longest the app waits for the first paint (a page opened in a hidden tab paints none). */
const PAINT_WAIT_MS = 1000;

let started = false;
function startOnce(): void {
  if (started) return;
  started = true;
  startAfterFirstPaint();
}
// A page without a first screen (the offline shell, index.html) has nothing to paint first.
if (!document.getElementById('root')?.hasChildNodes()) startOnce();
// The first contentful paint as the browser reports it (when it was shown, which can come a
// frame or more after the frame was drawn); without paint timing, after the next frame.
try {
  if (!PerformanceObserver.supportedEntryTypes.includes('paint'))
    throw new Error('no paint timing');
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    startOnce();
  });
  observer.observe({ type: 'paint', buffered: true });
} catch {
  requestAnimationFrame(() => setTimeout(startOnce));
}
setTimeout(startOnce, PAINT_WAIT_MS);
