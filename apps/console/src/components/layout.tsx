import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useLiveRefusal } from '../api/live';
import { useSession, useSignOut } from '../api/session';
import type { Scope } from '../api/schemas';
import { useCellLabels } from './cell-labels';

interface NavItem {
  href: string;
  label: string;
  /** Offered when the operator has this scope; 'admin-only' for the admin pages. */
  needs: Scope | 'admin-only';
}

const NAV: NavItem[] = [
  { href: '/agents', label: 'Agents', needs: 'agents:read' },
  { href: '/alerts', label: 'Alerts', needs: 'alerts:read' },
  { href: '/deployments', label: 'Deployments', needs: 'deployments:read' },
  { href: '/scripts', label: 'Scripts', needs: 'scripts:read' },
  { href: '/policies', label: 'Policies', needs: 'policies:read' },
  { href: '/clients', label: 'Clients', needs: 'clients:read' },
  { href: '/notifications', label: 'Notifications', needs: 'notifications:read' },
  { href: '/api-keys', label: 'API keys', needs: 'admin-only' },
  { href: '/operators', label: 'Operators', needs: 'admin-only' },
  { href: '/audit', label: 'Audit', needs: 'admin-only' },
  { href: '/custom-fields', label: 'Custom fields', needs: 'admin-only' },
];

/** The header (navigation, the operator's e-mail, Sign out) and the page's main landmark. */
export function Layout({ children }: { children: ReactNode }) {
  const { operator, can, isAdmin } = useSession();
  const signOut = useSignOut();
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const refused = useLiveRefusal();
  useEffect(() => setOpen(false), [location]);
  const main = useRef<HTMLElement>(null);
  useCellLabels(main);
  const items = NAV.filter((i) => (i.needs === 'admin-only' ? isAdmin : can(i.needs)));
  const current = (href: string) => location === href || location.startsWith(`${href}/`);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <nav aria-label="Main" className="container-fluid">
          <ul>
            <li>
              <strong className="brand">RMM</strong>
            </li>
            <li className="menu-toggle">
              <button type="button" className="outline secondary" aria-expanded={open} aria-controls="main-nav" onClick={() => setOpen(!open)}>
                Menu
              </button>
            </li>
          </ul>
          <ul id="main-nav" className={open ? 'nav-links open' : 'nav-links'}>
            {items.map((i) => (
              <li key={i.href}>
                <Link href={i.href} aria-current={current(i.href) ? 'page' : undefined}>
                  {i.label}
                </Link>
              </li>
            ))}
            <li className="who">
              <Link href="/account" className="email" title={`Your account: ${operator.email} (${operator.role})`} aria-current={current('/account') ? 'page' : undefined}>
                {operator.email}
              </Link>
            </li>
            <li>
              <button type="button" className="secondary sign-out" onClick={() => void signOut()}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" ref={main} className="container-fluid app-main" tabIndex={-1}>
        {refused && (
          <p role="alert" className="error live-refused">
            <strong>Live updates are off.</strong> The server said: {refused}. Pages show what they read and do not change by themselves until this is fixed and the page is reloaded.
          </p>
        )}
        {children}
      </main>
    </>
  );
}
