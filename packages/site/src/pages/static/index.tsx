import { useApp, useAuth } from '../../app/context.js';
import { SocialBlock } from '../../chrome/SocialBlock.js';
import { Link, useRoute } from '../../router/index.js';

/** A titled section of a static page. Keys are written out in full so the key test finds them. */
function Section({ title, text }: { title: string; text: string }) {
  const { t } = useApp();
  return (
    <section className="prose__section">
      <h2>{t(title)}</h2>
      <p>{t(text)}</p>
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
      <Section title="about_page.why_title" text="about_page.why_text" />
      <Section title="about_page.how_title" text="about_page.how_text" />
      <Section title="about_page.who_title" text="about_page.who_text" />
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
      <Section title="store_page.soon_title" text="store_page.soon_text" />
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
      <Section title="support_page.donate_title" text="support_page.donate_text" />
      <Section title="support_page.share_title" text="support_page.share_text" />
      <Section title="support_page.volunteer_title" text="support_page.volunteer_text" />
      <section className="prose__section">
        <h2>{t('support_page.embed_title')}</h2>
        <p>{t('support_page.embed_text')}</p>
        <p>
          <Link to="/embed">{t('support_page.embed_link')}</Link>
        </p>
      </section>
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
  ['privacy.controller_title', 'privacy.controller_text'],
  ['privacy.collect_title', 'privacy.collect_text'],
  ['privacy.cookies_title', 'privacy.cookies_text'],
  ['privacy.purpose_title', 'privacy.purpose_text'],
  ['privacy.public_title', 'privacy.public_text'],
  ['privacy.retention_title', 'privacy.retention_text'],
  ['privacy.rights_title', 'privacy.rights_text'],
] as const;

function Privacy() {
  const { t } = useApp();
  return (
    <>
      <h1>{t('pages.privacy_policy_title')}</h1>
      <p className="prose__meta">{t('privacy.updated')}</p>
      <p className="prose__lead">{t('privacy.intro')}</p>
      {PRIVACY_SECTIONS.map(([title, text]) => (
        <Section key={title} title={title} text={text} />
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
