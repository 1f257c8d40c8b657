import { useT } from '../../app/context.js';
import { useRoute } from '../../router/index.js';

/** Placeholder of the admin screen(s); S2 replaces this file. */
export default function AdminScreen() {
  const t = useT();
  const route = useRoute();
  return (
    <section className="page" data-screen={route.name}>
      <h1>{t('admin.list_title')}</h1>
    </section>
  );
}
