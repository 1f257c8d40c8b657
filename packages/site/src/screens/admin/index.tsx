import { matchPath, Navigate, useLocation } from '../../router/index.js';
import { DashboardLayout } from '../dashboard/index.js';
import { Administrators } from './Administrators.js';
import { AuditLog } from './AuditLog.js';
import { Campaigns } from './Campaigns.js';
import { ClientList } from './ClientList.js';
import { Reports } from './Reports.js';
import { ServiceReview } from './ServiceReview.js';
import { ADMIN_SECTIONS } from './sections.js';
import '../../forms/forms.css';
import '../dashboard/dashboard.css';
import './admin.css';

/**
 * Administration (`/admin/*`, administrators only): the sections of `sections.ts`. Who may open
 * which is the route table's business (routes.tsx); an unknown path goes to the list.
 */
export default function AdminScreen() {
  const { path } = useLocation();
  const found = ADMIN_SECTIONS.map((section) => ({
    section,
    params: matchPath(section.path, path),
  })).find((m) => m.params !== null);
  const params = found?.params ?? {};
  let content;
  switch (found?.section.name) {
    case 'clients':
      content = <ClientList />;
      break;
    case 'review':
      content = <ServiceReview key={params.id} id={params.id!} />;
      break;
    case 'reports':
      content = <Reports />;
      break;
    case 'campaigns':
      content = <Campaigns />;
      break;
    case 'audit':
      content = <AuditLog />;
      break;
    case 'administrators':
      content = <Administrators />;
      break;
    default:
      content = <Navigate to="/admin" />;
  }
  return <DashboardLayout screen="admin">{content}</DashboardLayout>;
}
