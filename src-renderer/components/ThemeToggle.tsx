import { useEffect, useState } from 'react';
import { applyTheme, initialTheme, saveTheme, type Theme } from './theme';

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(initialTheme);

  useEffect(() => applyTheme(theme), [theme]);

  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  const toggle = () => {
    saveTheme(next);
    setTheme(next);
  };

  return (
    <button
      type="button"
      className="icon-button"
      onClick={toggle}
      data-testid="theme-toggle"
      data-theme-current={theme}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
      <span className="icon-button__label">{theme === 'dark' ? 'Light' : 'Dark'}</span>
    </button>
  );
}
