import { useT } from '../../app/context.js';

/** Home: business search, vacancy search and the map/list switch. */
export default function HomePage() {
  const t = useT();
  return (
    <section className="home" data-screen="home">
      <h1>{t('home.title')}</h1>
    </section>
  );
}
