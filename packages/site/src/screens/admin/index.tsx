import type { ReactNode } from 'react';
import { matchPath, Navigate, useLocation, type RouteParams } from '../../router/index.js';
import { DashboardLayout } from '../dashboard/index.js';
import { Administrators } from './Administrators.js';
import { AuditLog } from './AuditLog.js';
import { Campaigns } from './Campaigns.js';
import { Claims } from './Claims.js';
import { ClientList } from './ClientList.js';
import { Reports } from './Reports.js';
import { ServiceReview } from './ServiceReview.js';
import { ADMIN_SECTIONS, type AdminSection } from './sections.js';
import '../../forms/forms.css';
import '../dashboard/dashboard.css';
import './admin.css';

/** The screen of each section. */
const SCREENS: Record<AdminSection['name'], (params: RouteParams) => ReactNode> = {
  clients: () => <ClientList />,
  review: (params) => <ServiceReview key={params.id} id={params.id!} />,
  reports: () => <Reports />,
  claims: () => <Claims />,
  campaigns: () => <Campaigns />,
  audit: () => <AuditLog />,
  administrators: () => <Administrators />,
};

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
  const content = found ? (
    SCREENS[found.section.name](found.params ?? {})
  ) : (
    <Navigate to="/admin" />
  );
  return <DashboardLayout screen="admin">{content}</DashboardLayout>;
}
