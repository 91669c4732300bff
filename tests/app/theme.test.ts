// @vitest-environment jsdom
/**
 * Day and night (docs/map.md "Night mode"): the theme follows the system's preference until the user
 * chooses one; the choice is remembered per user in this browser and written on the root element.
 */
import { describe, expect, it } from 'vitest';
import { createThemeController, type ThemeChoice } from '../../src/app/theme';

function fakeMedia(matches: boolean) {
  const listeners = new Set<() => void>();
  return {
    matches,
    addEventListener: (_type: string, listener: () => void) => {
      listeners.add(listener);
    },
    removeEventListener: (_type: string, listener: () => void) => {
      listeners.delete(listener);
    },
    flip(next: boolean) {
      this.matches = next;
      for (const listener of listeners) listener();
    },
    get listeners() {
      return listeners.size;
    },
  };
}

function memoryStorage() {
  const items = new Map<string, string>();
  return { items, getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

describe('the page theme', () => {
  it.each<[boolean, ThemeChoice, 'day' | 'night']>([
    [false, 'system', 'day'],
    [true, 'system', 'night'],
    [true, 'day', 'day'],
    [false, 'night', 'night'],
  ])('system prefers dark: %s, choice %s → %s, written on the root element', (dark, choice, shown) => {
    const root = document.createElement('html');
    const theme = createThemeController({ media: fakeMedia(dark), storage: memoryStorage(), root });
    theme.setUser('u1');
    theme.choose(choice);
    expect(theme.state.theme).toBe(shown);
    expect(root.dataset.theme).toBe(shown);
    expect(root.style.colorScheme).toBe(shown === 'night' ? 'dark' : 'light');
  });

  it('follows the system while the choice is "system", not after the user chose', () => {
    const media = fakeMedia(false);
    const theme = createThemeController({ media, storage: memoryStorage(), root: null });
    expect(theme.state.theme).toBe('day');
    media.flip(true);
    expect(theme.state.theme).toBe('night');
    theme.choose('day');
    media.flip(true);
    expect(theme.state.theme).toBe('day');
    theme.dispose();
    expect(media.listeners).toBe(0);
  });

  it('remembers the choice per user; signed out shows the system’s', () => {
    const storage = memoryStorage();
    const theme = createThemeController({ media: fakeMedia(false), storage, root: null });
    theme.setUser('u1');
    theme.choose('night');
    expect(storage.items.get('lightbar.theme.u1')).toBe('night');
    theme.setUser(null);
    expect(theme.state).toEqual({ choice: 'system', theme: 'day' });
    theme.setUser('u2');
    expect(theme.state.choice).toBe('system');
    theme.setUser('u1');
    expect(theme.state).toEqual({ choice: 'night', theme: 'night' });
    // A new page for u1 reads it back.
    const again = createThemeController({ media: fakeMedia(false), storage, root: null });
    again.setUser('u1');
    expect(again.state.theme).toBe('night');
  });

  it('an unreadable or unknown stored value, or storage that refuses, falls back without throwing', () => {
    const storage = memoryStorage();
    storage.items.set('lightbar.theme.u1', 'sepia');
    const theme = createThemeController({ media: fakeMedia(true), storage, root: null });
    theme.setUser('u1');
    expect(theme.state).toEqual({ choice: 'system', theme: 'night' });
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    const other = createThemeController({ media: null, storage: refusing, root: null });
    other.setUser('u1');
    expect(other.state.theme).toBe('day');
    other.choose('night');
    expect(other.state.theme).toBe('night');
  });
});
