/**
 * Day and night (docs/map.md "Night mode"; not in the spec): the page's theme. The choice is 'system'
 * (follow the operating system's light or dark preference, the default), 'day' or 'night', kept per
 * user in this browser (`lightbar.theme.<userId>`); signed out, the system's preference shows. The
 * theme is written on the root element (`data-theme`, `color-scheme`): the stylesheet's variables
 * swap there (src/app/app.css), and the map reads `state.theme` for its basemap colours.
 */
import { proxy } from 'valtio';
import type { MapTheme } from '../map/basemap-style';

export type ThemeChoice = 'system' | 'day' | 'night';
export type { MapTheme as Theme };

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'day', 'night'];
export const DARK_QUERY = '(prefers-color-scheme: dark)';
const KEY_PREFIX = 'lightbar.theme.';

export interface ThemeState {
  choice: ThemeChoice;
  /** What shows: the choice, or the system's preference for 'system'. */
  theme: MapTheme;
}

export interface ThemeController {
  readonly state: ThemeState;
  /** The signed-in user (null: signed out): their remembered choice applies. */
  setUser(userId: string | null): void;
  /** The user picks a theme; remembered for them in this browser. */
  choose(choice: ThemeChoice): void;
  dispose(): void;
}

interface ThemeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ThemeOptions {
  storage?: ThemeStorage | null;
  /** The system preference's media query list (null: no preference known, day; a browser without change events reads it once). */
  media?: {
    matches: boolean;
    addEventListener?(type: 'change', listener: () => void): void;
    removeEventListener?(type: 'change', listener: () => void): void;
  } | null;
  /** Where the theme is written (the document's root element; null in tests that only read the state). */
  root?: HTMLElement | null;
}

function isChoice(value: unknown): value is ThemeChoice {
  return value === 'system' || value === 'day' || value === 'night';
}

export function createThemeController(options: ThemeOptions = {}): ThemeController {
  const storage = options.storage === undefined ? (typeof localStorage === 'undefined' ? null : localStorage) : options.storage;
  const media = options.media === undefined ? (typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null) : options.media;
  const root = options.root === undefined ? (typeof document === 'undefined' ? null : document.documentElement) : options.root;
  let userId: string | null = null;

  const resolve = (choice: ThemeChoice): MapTheme => (choice === 'system' ? (media?.matches ? 'night' : 'day') : choice);
  const state = proxy<ThemeState>({ choice: 'system', theme: resolve('system') });

  function apply(choice: ThemeChoice): void {
    state.choice = choice;
    state.theme = resolve(choice);
    if (root) {
      root.dataset.theme = state.theme;
      root.style.colorScheme = state.theme === 'night' ? 'dark' : 'light';
    }
  }
  function remembered(): ThemeChoice {
    if (!userId || !storage) return 'system';
    try {
      const value = storage.getItem(KEY_PREFIX + userId);
      return isChoice(value) ? value : 'system';
    } catch {
      return 'system';
    }
  }
  const onSystemChange = () => {
    if (state.choice === 'system') apply('system');
  };
  media?.addEventListener?.('change', onSystemChange);
  apply('system');

  return {
    state,
    setUser(next) {
      if (next === userId) return;
      userId = next;
      apply(remembered());
    },
    choose(choice) {
      if (userId && storage) {
        try {
          storage.setItem(KEY_PREFIX + userId, choice);
        } catch {
          // Storage full or refused: the choice holds for this page.
        }
      }
      apply(choice);
    },
    dispose() {
      media?.removeEventListener?.('change', onSystemChange);
    },
  };
}
