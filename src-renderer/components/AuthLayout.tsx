import type { ReactNode } from 'react';
import { PRODUCT_NAME } from './product';
import { ThemeToggle } from './ThemeToggle';

/** The frame of the screens shown before signing in: a centred card. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="auth-layout" data-testid="app-ready">
      <div className="auth-layout__corner">
        <ThemeToggle />
      </div>
      <main className="auth-card">
        <div className="brand brand--large">
          <BrandMark />
          <span>{PRODUCT_NAME}</span>
        </div>
        <h1 className="auth-card__title">{title}</h1>
        {subtitle && <p className="auth-card__subtitle">{subtitle}</p>}
        {children}
      </main>
    </div>
  );
}

export function BrandMark() {
  return (
    <svg className="brand__mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="8" height="8" rx="2" />
      <rect x="13" y="3" width="8" height="8" rx="2" opacity="0.55" />
      <rect x="3" y="13" width="8" height="8" rx="2" opacity="0.55" />
      <rect x="13" y="13" width="8" height="8" rx="2" />
    </svg>
  );
}
