/**
 * part 1 §2 the right-click menu: the point's coordinates at 5 decimals, its three-word address
 * ('Locating...' while looked up, the words, or 'what3words not found...'), copy actions with
 * 'Copied' for 2 s (§9 copy feedback, menu), and links to two navigation services. An empty
 * result reads 'Unable to find location'. Escape or a click elsewhere closes it.
 */
import { useEffect, useRef, useState } from 'react';
import { COPY_FEEDBACK_MENU_MS, MAP_MENU_COORDINATE_DECIMALS } from '../../domain/constants';
import { formatCoordinate, formatLatLng, type LatLng } from '../../domain/coordinates';
import { MAP_CONTROL_TEXT, MAP_TEXT, THREE_WORD_TEXT } from '../../domain/labels';

export type ThreeWordState = { kind: 'locating' } | { kind: 'found'; words: string } | { kind: 'notFound' };

export interface MapContextMenuProps {
  /** Where the pointer was, in pixels from the map's top-left corner. */
  x: number;
  y: number;
  /** The map's size, to keep the menu inside it. */
  width: number;
  height: number;
  /** The point under the pointer; null when it could not be resolved. */
  point: LatLng | null;
  words: ThreeWordState;
  /** Writes text to the clipboard; rejects when it cannot. */
  copy: (text: string) => Promise<void>;
  onClose: () => void;
}

const MENU_WIDTH = 280;
const MENU_HEIGHT = 220;

/** Google Maps directions to a point (the Maps URLs API). */
export function googleDirectionsUrl(point: LatLng): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${menuCoordinate(point.lat)},${menuCoordinate(point.lng)}`;
}

/** Waze navigation to a point (Waze deep link). */
export function wazeUrl(point: LatLng): string {
  return `https://waze.com/ul?ll=${menuCoordinate(point.lat)},${menuCoordinate(point.lng)}&navigate=yes`;
}

function menuCoordinate(value: number): string {
  return formatCoordinate(value, MAP_MENU_COORDINATE_DECIMALS);
}

type Copied = 'coordinates' | 'words' | null;

export function MapContextMenu({ x, y, width, height, point, words, copy, onClose }: MapContextMenuProps) {
  const root = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState<Copied>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    root.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    const onPointer = (event: PointerEvent | MouseEvent) => {
      if (root.current && event.target instanceof Node && !root.current.contains(event.target)) onClose();
    };
    const doc = root.current?.ownerDocument;
    doc?.addEventListener('keydown', onKey);
    doc?.addEventListener('mousedown', onPointer);
    return () => {
      doc?.removeEventListener('keydown', onKey);
      doc?.removeEventListener('mousedown', onPointer);
    };
  }, [onClose]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copyText = (what: Exclude<Copied, null>, text: string) => {
    copy(text).then(
      () => {
        if (timer.current) clearTimeout(timer.current);
        setCopied(what);
        timer.current = setTimeout(() => setCopied(null), COPY_FEEDBACK_MENU_MS);
      },
      () => undefined, // no clipboard: nothing to confirm
    );
  };

  const left = Math.max(0, Math.min(x, width - MENU_WIDTH));
  const top = Math.max(0, Math.min(y, height - MENU_HEIGHT));

  return (
    <div ref={root} className="map-menu" role="dialog" aria-label={MAP_CONTROL_TEXT.menu} tabIndex={-1} style={{ left, top }}>
      {point === null ? (
        <p className="map-menu-empty">{MAP_TEXT.menuEmpty}</p>
      ) : (
        <>
          <div className="map-menu-row">
            <span className="map-menu-value" data-testid="menu-coordinates">
              {formatLatLng(point, MAP_MENU_COORDINATE_DECIMALS)}
            </span>
            <button
              type="button"
              className="map-link-button"
              aria-label={copied === 'coordinates' ? MAP_CONTROL_TEXT.copied : MAP_CONTROL_TEXT.copyCoordinates}
              onClick={() => copyText('coordinates', formatLatLng(point, MAP_MENU_COORDINATE_DECIMALS))}
            >
              {copied === 'coordinates' ? MAP_CONTROL_TEXT.copied : MAP_CONTROL_TEXT.copy}
            </button>
          </div>
          <div className="map-menu-row" aria-live="polite">
            {words.kind === 'locating' && <span className="map-menu-words map-menu-muted">{THREE_WORD_TEXT.locating}</span>}
            {words.kind === 'notFound' && <span className="map-menu-words map-menu-muted">{THREE_WORD_TEXT.notFound}</span>}
            {words.kind === 'found' && (
              <>
                <span className="map-menu-words" data-testid="menu-words">
                  <span aria-hidden="true" className="map-menu-slashes">
                    ///
                  </span>
                  {words.words}
                </span>
                <button
                  type="button"
                  className="map-link-button"
                  aria-label={copied === 'words' ? MAP_CONTROL_TEXT.copied : MAP_CONTROL_TEXT.copyWords}
                  onClick={() => copyText('words', `///${words.words}`)}
                >
                  {copied === 'words' ? MAP_CONTROL_TEXT.copied : MAP_CONTROL_TEXT.copy}
                </button>
              </>
            )}
          </div>
          <ul className="map-menu-links">
            <li>
              <a href={googleDirectionsUrl(point)} target="_blank" rel="noopener noreferrer">
                {MAP_CONTROL_TEXT.googleDirections}
              </a>
            </li>
            <li>
              <a href={wazeUrl(point)} target="_blank" rel="noopener noreferrer">
                {MAP_CONTROL_TEXT.waze}
              </a>
            </li>
          </ul>
        </>
      )}
    </div>
  );
}
