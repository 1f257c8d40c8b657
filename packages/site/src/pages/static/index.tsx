import { useApp, useAuth } from '../../app/context.js';
import { SocialBlock } from '../../chrome/SocialBlock.js';
import { Link, useRoute } from '../../router/index.js';

/** A titled section of a static page: the keys `<prefix>.<name>_title` and `<prefix>.<name>_text`. */
function Section({ prefix, name }: { prefix: string; name: string }) {
  const { t } = useApp();
  return (
    <section className="prose__section">
      <h2>{t(`${prefix}.${name}_title`)}</h2>
      <p>{t(`${prefix}.${name}_text`)}</p>
    </section>
  );
}

function About() {
  const { t, locale } = useApp();
  const loggedOut = useAuth((s) => s.status === 'logged_out');
  return (
    <>
      <h1>{t('pages.about_title')}</h1>
      <p className="prose__lead">{t('about_page.lead')}</p>
      <Section prefix="about_page" name="why" />
      <Section prefix="about_page" name="how" />
      <Section prefix="about_page" name="who" />
      {loggedOut && locale === 'ua' && (
        <p>
          <Link className="button" to="/provide-help">
            {t('about_page.join')}
          </Link>
        </p>
      )}
    </>
  );
}

function Store() {
  const { t } = useApp();
  return (
    <>
      <h1>{t('pages.store_title')}</h1>
      <p className="prose__lead">{t('store_page.lead')}</p>
      <Section prefix="store_page" name="soon" />
      <SocialBlock />
    </>
  );
}

function Support() {
  const { t, locale } = useApp();
  const loggedOut = useAuth((s) => s.status === 'logged_out');
  return (
    <>
      <h1>{t('pages.support_title')}</h1>
      <p className="prose__lead">{t('support_page.lead')}</p>
      <Section prefix="support_page" name="donate" />
      <Section prefix="support_page" name="share" />
      <Section prefix="support_page" name="volunteer" />
      {loggedOut && locale === 'ua' && (
        <p>
          <Link className="button" to="/provide-help">
            {t('support_page.add_service')}
          </Link>
        </p>
      )}
    </>
  );
}

const PRIVACY_SECTIONS = [
  'controller',
  'collect',
  'cookies',
  'purpose',
  'public',
  'retention',
  'rights',
] as const;

function Privacy() {
  const { t } = useApp();
  return (
    <>
      <h1>{t('pages.privacy_policy_title')}</h1>
      <p className="prose__meta">{t('privacy.updated')}</p>
      <p className="prose__lead">{t('privacy.intro')}</p>
      {PRIVACY_SECTIONS.map((s) => (
        <Section key={s} prefix="privacy" name={s} />
      ))}
    </>
  );
}

function Disclaimer() {
  const { t } = useApp();
  return (
    <>
      <h1>{t('disclaimer.title')}</h1>
      <p>{t('disclaimer.text')}</p>
    </>
  );
}

const PAGES: Record<string, () => React.JSX.Element> = {
  about: About,
  store: Store,
  support: Support,
  'privacy-policy': Privacy,
  disclaimer: Disclaimer,
};

/** The static pages: about, store, support (donation), privacy policy, disclaimer. */
export default function StaticPage() {
  const { name } = useRoute();
  const Page = PAGES[name] ?? About;
  return (
    <article className="page prose" data-screen={name}>
      <Page />
    </article>
  );
}
