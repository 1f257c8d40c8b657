import { useT } from '../../app/context.js';
import { useRoute } from '../../router/index.js';

/** Placeholder of the unsubscribe screen(s); S2 replaces this file. */
export default function UnsubscribeScreen() {
  const t = useT();
  const route = useRoute();
  return (
    <section className="page" data-screen={route.name}>
      <h1>{t('unsubscribe.title')}</h1>
    </section>
  );
}
