import { expect, type Page } from '@playwright/test';

/** Viewports the sessions table must fit (issue: a 911 px table in 778 px, user agent a letter wide). */
export const SESSION_VIEWPORTS = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
] as const;

/** Page object of the Outbox & sessions screen (features/outbox). */
export class OutboxPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-outbox').click();
    await expect(this.page.getByTestId('outbox')).toBeVisible();
    await expect(this.page.getByTestId('sessions')).toBeVisible();
  }

  messages() {
    return this.page.getByTestId('outbox-message');
  }

  sessionRows() {
    return this.page.getByTestId('session-row');
  }

  /**
   * At the current viewport, the sessions table `testId` fits its frame: nothing scrolls sideways,
   * every session's End button is inside the frame and the window, the user agent takes two lines at
   * most (the whole string in its tooltip) and a session row stays short.
   */
  async expectSessionsFit(testId: string): Promise<void> {
    const table = this.page.getByTestId(testId);
    await table.scrollIntoViewIfNeeded();
    const fit = await table.evaluate((el) => {
      const frame = el.parentElement as HTMLElement;
      const box = frame.getBoundingClientRect();
      const sessions = [...el.querySelectorAll<HTMLElement>('[data-testid="session-row"]')].map((row) => {
        const end = row.querySelector('[data-testid="session-end"]')?.getBoundingClientRect();
        const ua = row.querySelector<HTMLElement>('[data-testid="session-ua"]');
        const lineHeight = parseFloat(getComputedStyle(ua as HTMLElement).lineHeight);
        return {
          endInside:
            end !== undefined && end.right <= box.right + 0.5 && end.left >= box.left && end.right <= innerWidth,
          uaLines: Math.round((ua?.getBoundingClientRect().height ?? 0) / lineHeight),
          uaTitle: ua?.title ?? '',
          height: row.getBoundingClientRect().height,
        };
      });
      return { sideways: frame.scrollWidth > frame.clientWidth, sessions };
    });
    expect(fit.sideways).toBe(false);
    expect(fit.sessions.length).toBeGreaterThan(0);
    for (const session of fit.sessions) {
      expect(session.endInside).toBe(true);
      expect(session.uaLines).toBeLessThanOrEqual(2);
      expect(session.height).toBeLessThan(120);
      expect(session.uaTitle).toMatch(/^User agent: /);
    }
  }

  async endSessionOf(accountId: string): Promise<void> {
    const row = this.page.locator(`[data-testid="session-row"][data-account="${accountId}"]`);
    await row.getByTestId('session-end').click();
    await row.getByTestId('session-end-confirm').click();
    await expect(row).toHaveCount(0);
  }
}
