/**
 * The administration's sections under `/admin`, in the side menu's order. The admin screen shows
 * the one matching the path, the side menu lists them, and the route tests open every one.
 * `superOnly`: super administrators only (the route table guards it, see routes.tsx).
 * `menu: false`: not in the side menu unless open (a service's review is reached from the list).
 */
export const ADMIN_SECTIONS = [
  { name: 'clients', path: '/admin', label: 'admin.list_title' },
  { name: 'review', path: '/admin/services/:id', label: 'admin.review_title', menu: false },
  { name: 'reports', path: '/admin/reports', label: 'admin.reports' },
  { name: 'claims', path: '/admin/claims', label: 'duplicates.claims_title' },
  { name: 'campaigns', path: '/admin/campaigns', label: 'admin.email_sender' },
  { name: 'audit', path: '/admin/audit', label: 'admin.audit_title' },
  {
    name: 'administrators',
    path: '/admin/administrators',
    label: 'admin.administrators_title',
    superOnly: true,
  },
] as const satisfies readonly {
  name: string;
  path: string;
  label: string;
  menu?: boolean;
  superOnly?: boolean;
}[];

export type AdminSection = (typeof ADMIN_SECTIONS)[number];
