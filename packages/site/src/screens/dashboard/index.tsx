import { matchPath, useRoute } from '../../router/index.js';
import { AccountSection } from './AccountSection.js';
import { DashboardNav } from './DashboardNav.js';
import { MyServices } from './MyServices.js';
import { ServiceEditor } from './ServiceEditor.js';
import '../../forms/forms.css';
import './dashboard.css';

/**
 * The personal dashboard (`/dashboard/*`): account (`/dashboard`), my services
 * (`/dashboard/services`), add service (`…/services/new`) and edit service with its vacancies
 * (`…/services/:id`).
 */
export default function DashboardScreen() {
  const rest = `/${useRoute().params['*'] ?? ''}`;
  const edit = matchPath('/services/:id', rest);
  let section;
  if (rest === '/services') section = <MyServices />;
  else if (rest === '/services/new') section = <ServiceEditor />;
  else if (edit?.id) section = <ServiceEditor id={edit.id} />;
  else section = <AccountSection />;
  return <DashboardLayout screen="dashboard">{section}</DashboardLayout>;
}

/** The dashboard's side menu beside a section; the admin screens use it too. */
export function DashboardLayout({
  screen,
  children,
}: {
  screen: string;
  children: React.ReactNode;
}) {
  return (
    <div className="page dash" data-screen={screen}>
      <DashboardNav />
      <div className="dash__main">{children}</div>
    </div>
  );
}
