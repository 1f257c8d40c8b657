import { selectIsSuperAdmin } from '@poruch/core';
import { useAuth } from '../../app/context.js';
import { matchPath, Navigate, useRoute } from '../../router/index.js';
import { DashboardLayout } from '../dashboard/index.js';
import { Administrators } from './Administrators.js';
import { Campaigns } from './Campaigns.js';
import { ClientList } from './ClientList.js';
import { Reports } from './Reports.js';
import { ServiceReview } from './ServiceReview.js';
import '../../forms/forms.css';
import '../dashboard/dashboard.css';

/**
 * Administration (`/admin/*`, administrators only): the client and partner list (`/admin`),
 * review of a service (`/admin/services/:id`), reports, the e-mail sender, and add administrator
 * for super administrators.
 */
export default function AdminScreen() {
  const rest = `/${useRoute().params['*'] ?? ''}`;
  const isSuper = useAuth(selectIsSuperAdmin);
  const review = matchPath('/services/:id', rest);
  let section;
  if (review?.id) section = <ServiceReview key={review.id} id={review.id} />;
  else if (rest === '/reports') section = <Reports />;
  else if (rest === '/campaigns') section = <Campaigns />;
  else if (rest === '/administrators')
    section = isSuper ? <Administrators /> : <Navigate to="/admin" />;
  else if (rest === '/') section = <ClientList />;
  else section = <Navigate to="/admin" />;
  return <DashboardLayout screen="admin">{section}</DashboardLayout>;
}
