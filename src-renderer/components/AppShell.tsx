import { Fragment, useCallback, useRef, useState, type ReactNode } from 'react';
import { useDismissOverlay } from './dismiss-overlay';
import type { FaultBody } from '../../src-shared/faults';
import { BrandMark } from './AuthLayout';
import { FaultMessage } from './FaultMessage';
import { PRODUCT_NAME } from './product';
import { ThemeToggle } from './ThemeToggle';
import type { Screen } from '../routing/route';

export type NavSection = 'Data' | 'Model' | 'Keys & tokens' | 'Access' | 'Desktop';

export interface NavItem {
  screen: Screen;
  label: string;
  section: NavSection;
}

interface AppShellProps {
  /** The sidebar's screens in order (app/screens.tsx); a heading starts each new section. */
  navItems: readonly NavItem[];
  orgCode: string;
  orgName: string;
  userEmail: string;
  version: string;
  activeScreen: Screen;
  /** A sidebar link's target: the screen as it was left (in the same org), or the screen itself. */
  hrefOf: (screen: Screen) => string;
  onLogout: () => void;
  loggingOut: boolean;
  /** A failed logout: the session may still be open, so say so instead of pretending. */
  logoutFault: FaultBody | null;
  /** Header slot after the org chip (the desktop app's active connection). */
  headerExtra?: ReactNode;
  /** Shown in place of the plain org chip: the org switcher (components/OrgSwitcher.tsx). */
  orgSwitcher?: ReactNode;
  children: ReactNode;
}

/** The signed-in frame: header with org, user, theme and logout; a sidebar; the screen. */
export function AppShell(props: AppShellProps) {
  // On narrow windows the sidebar folds away behind a menu button (CSS decides when).
  const [navOpen, setNavOpen] = useState(false);
  // Open over the screen, it closes as overlays do: a press outside it, or Escape.
  const sidebar = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  useDismissOverlay(
    navOpen,
    [sidebar, menuButton],
    useCallback(() => setNavOpen(false), []),
  );
  return (
    <div className={navOpen ? 'shell shell--nav-open' : 'shell'} data-testid="app-ready">
      <header className="shell__header">
        <button
          type="button"
          className="icon-button shell__menu-button"
          aria-label={navOpen ? 'Hide sections' : 'Show sections'}
          aria-expanded={navOpen}
          aria-controls="shell-sidebar"
          data-testid="nav-toggle"
          ref={menuButton}
          onClick={() => setNavOpen(!navOpen)}
        >
          ☰
        </button>
        <div className="brand">
          <BrandMark />
          <span>{PRODUCT_NAME}</span>
        </div>
        {props.orgSwitcher ?? (
          <span className="org-chip" title={`Org code: ${props.orgCode}`}>
            <span className="org-chip__name">{props.orgName}</span>
            {props.orgName !== props.orgCode && <code className="org-chip__code">{props.orgCode}</code>}
          </span>
        )}
        {props.headerExtra}
        <div className="shell__header-end">
          <span className="current-user" data-testid="current-user" title="Signed in as">
            {props.userEmail}
          </span>
          <ThemeToggle />
          <button
            type="button"
            className="button button--ghost"
            onClick={props.onLogout}
            disabled={props.loggingOut}
            data-testid="logout-button"
          >
            {props.loggingOut ? 'Signing out…' : 'Log out'}
          </button>
        </div>
      </header>
      <nav
        className="shell__sidebar"
        id="shell-sidebar"
        aria-label="Sections"
        ref={sidebar}
        // Following a link closes the menu; a press elsewhere inside it (a heading, the gaps) does not.
        onClick={(e) => (e.target as Element).closest('a') && setNavOpen(false)}
      >
        {props.navItems.map((item, index) => {
          const previous = props.navItems[index - 1];
          return (
            <Fragment key={item.screen}>
              {previous?.section !== item.section && (
                <p className={index === 0 ? 'shell__nav-heading' : 'shell__nav-heading shell__nav-heading--spaced'}>
                  {item.section}
                </p>
              )}
              <NavLink
                screen={item.screen}
                label={item.label}
                activeScreen={props.activeScreen}
                href={props.hrefOf(item.screen)}
              />
            </Fragment>
          );
        })}
        <p className="shell__version">v{props.version}</p>
      </nav>
      <main className="shell__main">
        {props.logoutFault && (
          <div className="shell__banner">
            <FaultMessage fault={props.logoutFault} compact />
          </div>
        )}
        {props.children}
      </main>
    </div>
  );
}

function NavLink({
  screen,
  label,
  activeScreen,
  href,
}: {
  screen: Screen;
  label: string;
  activeScreen: Screen;
  href: string;
}) {
  const active = screen === activeScreen;
  return (
    <a
      className={active ? 'shell__nav-link shell__nav-link--active' : 'shell__nav-link'}
      href={href}
      aria-current={active ? 'page' : undefined}
      data-testid={`nav-${screen}`}
    >
      {label}
    </a>
  );
}
