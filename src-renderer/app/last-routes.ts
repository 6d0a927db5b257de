import type { Route, Screen } from '../routing/route';

/**
 * The route each screen was last shown with, in this window's memory, so the sidebar takes the
 * user back to the app, account or pane they left (issue #18 item 9) instead of a fresh screen.
 * Routes never hold secrets (tokens and secrets stay out of the URL), so remembering them is safe.
 */
export class LastRoutes {
  private readonly byScreen = new Map<Screen, Route>();

  remember(route: Route): void {
    this.byScreen.set(route.screen, route);
  }

  /** The screen's last route in the same org, if it was shown in this window. */
  routeFor(screen: Screen, org: string | undefined): Route | undefined {
    const last = this.byScreen.get(screen);
    return last && last.org === org ? last : undefined;
  }
}
