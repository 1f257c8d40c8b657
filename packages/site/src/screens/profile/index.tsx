import { useT } from '../../app/context.js';
import { useRoute } from '../../router/index.js';

/** Placeholder of the profile screen(s); S2 replaces this file. */
export default function ProfileScreen() {
  const t = useT();
  const route = useRoute();
  return (
    <section className="page" data-screen={route.name}>
      <h1>{t('home.view_profile')}</h1>
    </section>
  );
}
