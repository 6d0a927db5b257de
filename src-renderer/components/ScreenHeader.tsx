import type { ReactNode } from 'react';

interface ScreenHeaderProps {
  /** The screen's `<h1>`; the screen's `<section aria-labelledby>` points at `titleId`. */
  title: ReactNode;
  titleId: string;
  /** One line under the title: what the screen shows, often the endpoint it reads. */
  description?: ReactNode;
  /** Buttons on the right (refresh, "New …"). */
  actions?: ReactNode;
}

/** The title row every console screen starts with, written once instead of by hand per screen. */
export function ScreenHeader({ title, titleId, description, actions }: ScreenHeaderProps) {
  return (
    <div className="screen__header">
      <div>
        <h1 className="screen__title" id={titleId}>
          {title}
        </h1>
        {description !== undefined && <p className="screen__subtitle">{description}</p>}
      </div>
      {actions !== undefined && <div className="screen__actions">{actions}</div>}
    </div>
  );
}
