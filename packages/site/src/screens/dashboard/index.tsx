import { useT } from '../../app/context.js';
import { useRoute } from '../../router/index.js';

/** Placeholder of the dashboard screen(s); S2 replaces this file. */
export default function DashboardScreen() {
  const t = useT();
  const route = useRoute();
  return (
    <section className="page" data-screen={route.name}>
      <h1>{t('dashboard.title')}</h1>
    </section>
  );
}
