/**
 * The command palette (docs/accessibility.md "Keyboard"): Ctrl+K (⌘+K on macOS) anywhere in the
 * dashboard — the map and text fields included — opens a dialog (src/app/ui/modal.tsx) holding a
 * WAI-ARIA combobox with its listbox. It finds assets and incidents (the live worker ranks them:
 * `paletteMatches`, no REST call per keystroke), the cached areas, the sections the user may see
 * and a typed 'lat, lng' (the map's coordinate search parser), ranked by src/domain/palette.ts with
 * the user's recent choices first. Arrow keys, Home and End move; Enter chooses; Escape closes and
 * focus goes back where it was. Choosing does what the item's own row does.
 */
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { eventsSectionLabel, type ResponderMix } from '../../domain/asset-status';
import { parseCoordinateSearch } from '../../domain/coordinates';
import { DIALOG_TEXT, PALETTE_TEXT } from '../../domain/labels';
import {
  isPaletteShortcut,
  paletteKey,
  paletteRecentKey,
  parseRecent,
  PALETTE_LIMIT,
  rankPalette,
  withRecent,
  type PaletteItem,
} from '../../domain/palette';
import { allowedSections, canSeeSection, type SectionKey } from '../../domain/permissions';
import type { Profile } from '../../domain/profile';
import { useLive } from '../live/hooks';
import { focusArea } from '../map/area-focus';
import type { MapState } from '../map/map-state';
import { useAreas } from '../map/use-areas';
import { openAsset, panTo } from '../section/focus-on';
import { itemHref } from '../section/item-href';
import { sectionLabel, sectionLinkTarget, type ShellState } from '../shell/shell-model';
import { Modal } from '../ui/modal';
import './palette.css';

export interface CommandPaletteProps {
  map: MapState;
  profile: Profile;
  mix: ResponderMix;
  /** The subscribed organization (its areas are listed). */
  organizationId: string;
  /** The section links' memory: a section opens as its nav link does. */
  shell: ShellState;
}

/** Mounted once in the dashboard: listens for the shortcut and shows the palette while open. */
export function CommandPalette(props: CommandPaletteProps) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    // Capture: the map and the fields below never see the shortcut first.
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);
  if (!open) return null;
  return <PaletteDialog {...props} onClose={() => setOpen(false)} />;
}

function readRecent(userId: string): PaletteItem[] {
  try {
    return parseRecent(localStorage.getItem(paletteRecentKey(userId)));
  } catch {
    return [];
  }
}

function writeRecent(userId: string, recent: readonly PaletteItem[]): void {
  try {
    localStorage.setItem(paletteRecentKey(userId), JSON.stringify(recent));
  } catch {
    // Storage full or refused: the choice is simply not remembered.
  }
}

/** An option's kind as shown; an incident reads 'Event' where the section reads 'Events' (part 1 §2). */
function kindLabel(kind: PaletteItem['kind'], mix: ResponderMix): string {
  if (kind === 'incident' && eventsSectionLabel(mix) === 'Events') return PALETTE_TEXT.kind.event;
  return PALETTE_TEXT.kind[kind];
}

/** The sections the palette offers: those the user may see, each once (data's own pages stand for it). */
function sectionItems(profile: Profile, mix: ResponderMix): PaletteItem[] {
  return allowedSections(profile.permissions)
    .filter((entry) => entry.key !== 'data')
    .map((entry) => ({ kind: 'section', id: entry.key, label: sectionLabel(entry.key, mix) }));
}

/** The assets and incidents the worker finds for the query (none while it is empty or without live data). */
function useLiveMatches(query: string): PaletteItem[] {
  const { bridge } = useLive();
  const [answer, setAnswer] = useState<{ query: string; items: PaletteItem[] }>({ query: '', items: [] });
  useEffect(() => {
    if (!bridge || query.trim() === '') return undefined;
    let current = true;
    void bridge
      .paletteMatches(query, PALETTE_LIMIT)
      .then((items) => {
        if (current) setAnswer({ query, items });
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [bridge, query]);
  return answer.query === query ? answer.items : NO_ITEMS;
}
const NO_ITEMS: PaletteItem[] = [];

function PaletteDialog({ map, profile, mix, organizationId, shell, onClose }: CommandPaletteProps & { onClose: () => void }) {
  const navigate = useNavigate();
  const { bridge } = useLive();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [recent] = useState(() => readRecent(profile.id));
  const areas = useAreas(organizationId);
  const liveMatches = useLiveMatches(query);
  const permissions = profile.permissions;

  const items = useMemo(() => {
    const areaIds = new Set(areas.map((area) => area.id));
    const mayList = (item: PaletteItem) =>
      (item.kind !== 'asset' || canSeeSection(permissions, 'things')) &&
      (item.kind !== 'incident' || canSeeSection(permissions, 'events')) &&
      // A remembered area of another organization is not offered.
      (item.kind !== 'area' || areaIds.has(item.id)) &&
      (item.kind !== 'section' || canSeeSection(permissions, item.id as SectionKey));
    const areaItems: PaletteItem[] = areas.map((area) => ({ kind: 'area', id: area.id, label: area.displayName }));
    const candidates = [...liveMatches, ...areaItems, ...sectionItems(profile, mix)].filter(mayList);
    const ranked = rankPalette(query, candidates, recent.filter(mayList));
    // A typed coordinate is offered first (the map's coordinate box: part 1 §2, §5).
    const point = parseCoordinateSearch(query);
    if (!point) return ranked;
    const coordinate: PaletteItem = {
      kind: 'coordinate',
      id: `${point.lat},${point.lng}`,
      label: PALETTE_TEXT.coordinate(point.lat, point.lng),
    };
    return [coordinate, ...ranked].slice(0, PALETTE_LIMIT);
  }, [query, liveMatches, areas, profile, mix, recent, permissions]);

  useEffect(() => setActive(0), [items]);
  const optionId = (index: number) => `${listId}-option-${index}`;

  const choose = (item: PaletteItem) => {
    writeRecent(profile.id, withRecent(recent, item));
    onClose();
    switch (item.kind) {
      case 'asset': {
        // part 1 §2, as the Live list's row: selected, targeted, the map on it, then its page.
        const href = itemHref('things', item.id);
        if (!bridge) {
          navigate(href);
          return;
        }
        void bridge
          .asset(item.id)
          .catch(() => null)
          .then((asset) => {
            openAsset(map, bridge, { id: item.id, position: asset?.position ?? null });
            navigate(href);
          });
        return;
      }
      case 'incident':
        // As the events panel's row: its page, which targets the event and centres the map on it (part 1 §2).
        navigate(itemHref('events', item.id));
        return;
      case 'area': {
        // part 2 §2, as 'Jump to your saved areas...' and the list's row.
        const area = areas.find((candidate) => candidate.id === item.id);
        if (area) focusArea(map, area);
        navigate(itemHref('areas', item.id));
        return;
      }
      case 'section':
        navigate(sectionLinkTarget(item.id as SectionKey, shell.lastIds));
        return;
      case 'coordinate': {
        const [lat, lng] = item.id.split(',').map(Number);
        if (lat !== undefined && lng !== undefined) panTo(map, { lat, lng });
        return;
      }
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = items.length - 1;
    const move: Record<string, number | undefined> = {
      ArrowDown: active >= last ? 0 : active + 1,
      ArrowUp: active <= 0 ? last : active - 1,
      Home: 0,
      End: last,
    };
    const next = move[event.key];
    if (next !== undefined) {
      event.preventDefault();
      if (items.length > 0) setActive(next);
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      const item = items[active];
      if (item) choose(item);
    }
  };

  const expanded = items.length > 0;
  return (
    <Modal
      title={PALETTE_TEXT.title}
      onClose={onClose}
      actions={
        <button type="button" className="button button-secondary" onClick={onClose}>
          {DIALOG_TEXT.close}
        </button>
      }
    >
      <div className="palette">
        <input
          className="palette-input"
          type="text"
          role="combobox"
          aria-label={PALETTE_TEXT.input}
          placeholder={PALETTE_TEXT.input}
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} className="palette-list" role="listbox" aria-label={PALETTE_TEXT.results}>
          {items.map((item, index) => (
            <li
              key={paletteKey(item)}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'palette-option palette-option-active' : 'palette-option'}
              data-kind={item.kind}
              // A click chooses; the input keeps focus.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(item)}
            >
              <span className="palette-label">{item.label}</span>
              {item.detail && <span className="palette-detail">{item.detail}</span>}
              <span className="palette-kind">{kindLabel(item.kind, mix)}</span>
            </li>
          ))}
        </ul>
        {!expanded && query.trim() !== '' && (
          <p className="palette-none" role="status">
            {PALETTE_TEXT.none}
          </p>
        )}
      </div>
    </Modal>
  );
}
