import { t } from '../text.js';

/** The footer text of every page (spec §2 "Footer and layout"). */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p>
          © {new Date().getFullYear()} {t('footer.text')}
        </p>
        <a href="/privacy-policy">{t('footer.privacy')}</a>
      </div>
    </footer>
  );
}
