import { useApp } from '../app/context.js';
import { SocialBlock } from '../chrome/SocialBlock.js';
import { Link } from '../router/index.js';

/** The footer text: every page except home and store. */
export function SiteFooter() {
  const { t } = useApp();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p>{t('footer.text')}</p>
        <SocialBlock />
        <p>
          {t('footer.copyright', { year: new Date().getFullYear() })} ·{' '}
          <Link to="/privacy-policy">{t('footer.privacy_policy')}</Link> ·{' '}
          <Link to="/embed">{t('footer.embed')}</Link>
        </p>
      </div>
    </footer>
  );
}
