import { useCallback, useState } from 'react';

/**
 * True once the element has come within `margin` of the viewport (and stays true): what is
 * below the first screen (the home map, a profile's static map) loads when the visitor scrolls
 * to it and does not compete with the first paint. Without IntersectionObserver, true at once.
 */
export function useNearViewport(
  margin = '300px',
): [(el: Element | null) => (() => void) | void, boolean] {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useCallback(
    (el: Element | null) => {
      if (!el || near) return;
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) setNear(true);
        },
        { rootMargin: `${margin} 0px` },
      );
      observer.observe(el);
      return () => observer.disconnect();
    },
    [near, margin],
  );
  return [ref, near];
}
