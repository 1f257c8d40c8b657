import { useT } from '../../app/context.js';
import { useRoute } from '../../router/index.js';

const TITLES: Record<string, string> = {
  about: 'pages.about_title',
  store: 'pages.store_title',
  support: 'pages.support_title',
  'privacy-policy': 'pages.privacy_policy_title',
  disclaimer: 'disclaimer.title',
};

/** The static pages: about, store, support, privacy policy, disclaimer. */
export default function StaticPage() {
  const t = useT();
  const { name } = useRoute();
  return (
    <article className="page" data-screen={name}>
      <h1>{t(TITLES[name] ?? 'pages.about_title')}</h1>
    </article>
  );
}
