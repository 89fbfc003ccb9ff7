import { isAdmin } from '@ratelens/core';

export interface NavItem {
  label: string;
  to: string;
}

const HOME: NavItem = { label: 'Home', to: '/' };
const INVENTORY: NavItem = { label: 'Inventory List', to: '/inventoryList' };
const RX_WHOLESALER: NavItem = { label: 'Rx Wholesaler', to: '/rxwholesaler' };
const PRODUCTS: NavItem = { label: 'Products & services', to: '/productandservices' };
const SUBSCRIPTION: NavItem = { label: 'Subscription', to: '/subscription' };
const RATES: NavItem = { label: 'Rates', to: '/pivotTable' };
const MISSION: NavItem = { label: 'Our Mission', to: '/ourMission' };
const PARTNERS: NavItem = { label: 'Our Partners', to: '/partner' };
const VINDEX: NavItem = { label: 'Vindex', to: '/vindex' };
const USERS: NavItem = { label: 'Users', to: '/userList' };
const MESSAGES: NavItem = { label: 'Messages', to: '/admin/feedback' };
const PARTNER_ADMIN: NavItem = { label: 'Partners', to: '/admin/partners' };
const ORGANISATIONS: NavItem = { label: 'Organisations', to: '/admin/organisations' };
const PLAN_DESIGN: NavItem = { label: 'Plan design', to: '/admin/plan-design' };
const CATALOGUE: NavItem = { label: 'Catalogue', to: '/admin/catalogue' };
const FAILING_FILES: NavItem = { label: 'Files', to: '/admin/files' };

/**
 * The two header variants of search-and-accounts §2: signed out without Subscription, Rates
 * and Vindex; signed in with all of them.
 */
export function navigationFor(signedIn: boolean): NavItem[] {
  if (!signedIn) return [HOME, INVENTORY, RX_WHOLESALER, PRODUCTS, MISSION, PARTNERS];
  return [HOME, INVENTORY, RX_WHOLESALER, PRODUCTS, SUBSCRIPTION, RATES, MISSION, PARTNERS, VINDEX];
}

/**
 * The screens for administrators only: the user list, the contact messages, the partner
 * management, the employer organisations, the plan design, the catalogue and the hospitals'
 * files that could not be read. They have their own navigation, because with the main links
 * they were 15 and wrapped at 1,440 px.
 */
export function adminNavigationFor(role: string | null): NavItem[] {
  return isAdmin(role)
    ? [USERS, MESSAGES, PARTNER_ADMIN, ORGANISATIONS, PLAN_DESIGN, CATALOGUE, FAILING_FILES]
    : [];
}
