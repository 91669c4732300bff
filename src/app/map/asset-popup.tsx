/**
 * An asset's popup on the map (part 1 §2 Map: "Hover and pin popups exist; the popup of an
 * out-of-service asset shows Out-of-Service"): the primary display name, the status (its label by
 * the organization's responder mix, or 'Out-of-Service'), direction, speed and last sync — the
 * asset detail's status facts (part 1 §2 Asset detail). A pinned popup has a Close button.
 */
import { statusLabel, type AssetStatus, type ResponderMix } from '../../domain/asset-status';
import { MAP_TEXT } from '../../domain/labels';
import { formatDateTime } from '../../domain/time';
import type { AssetDetails } from '../../domain/live-diff';
import './asset-popup.css';

export interface AssetPopupProps {
  asset: AssetDetails;
  mix: ResponderMix;
  /** Screen position of the asset (px in the map). */
  x: number;
  y: number;
  /** Pinned: stays until closed (the pin-marker preference). */
  onClose?: () => void;
  timeZone?: string | null;
  /** Extra classes from `hoverPlacement` (a hover popup near an edge of the map). */
  placement?: string;
}

/** chosen: a hover popup is about this tall and half this wide, px (asset-popup.css). */
const FLIP_BELOW_PX = 180;
const ALIGN_SIDE_PX = 140;

/**
 * Where a hover popup opens from its point so the map's edges do not cut it: above (the default),
 * below near the map's top edge, left- or right-aligned near a side.
 */
export function hoverPlacement(x: number, y: number, size: { width: number; height: number } | null): string {
  const classes: string[] = [];
  if (y < FLIP_BELOW_PX) classes.push('asset-popup--below');
  if (size && x > size.width - ALIGN_SIDE_PX) classes.push('asset-popup--end');
  else if (x < ALIGN_SIDE_PX) classes.push('asset-popup--start');
  return classes.join(' ');
}

/** The status line of a popup: out of service wins (part 1 §2), else the mix's label (part 1 §4). */
export function popupStatusText(asset: Pick<AssetDetails, 'inService' | 'status'>, mix: ResponderMix): string {
  return asset.inService ? statusLabel(asset.status, mix) : MAP_TEXT.outOfService;
}

/** Speed as shown (mph, the devices' unit: server/live/device-message.ts). */
export function speedText(speed: number): string {
  return `${Math.round(speed)} mph`;
}

export function AssetPopup({ asset, mix, x, y, onClose, timeZone, placement = '' }: AssetPopupProps) {
  const pinned = onClose !== undefined;
  const status = popupStatusText(asset, mix);
  return (
    <div
      className={`asset-popup${pinned ? ' asset-popup--pinned' : ''} ${placement}`.trim()}
      style={{ left: x, top: y }}
      role={pinned ? 'dialog' : 'tooltip'}
      aria-label={asset.primaryDisplayName}
      data-testid={pinned ? 'asset-popup-pinned' : 'asset-popup'}
    >
      <div className="asset-popup__head">
        <strong className="asset-popup__name">{asset.primaryDisplayName}</strong>
        {pinned && (
          <button type="button" className="asset-popup__close" onClick={onClose}>
            Close
          </button>
        )}
      </div>
      {asset.secondaryDisplayName && <div className="asset-popup__secondary">{asset.secondaryDisplayName}</div>}
      <div className={`asset-popup__status asset-popup__status--${asset.inService ? asset.status : 'oos'}`}>{status}</div>
      <dl className="asset-popup__facts">
        <dt>Direction</dt>
        <dd>{asset.courseDirection ?? '—'}</dd>
        <dt>Speed</dt>
        <dd>{speedText(asset.speed)}</dd>
        <dt>Last sync</dt>
        <dd>{asset.heartbeatTime === null ? '—' : formatDateTime(asset.heartbeatTime, timeZone)}</dd>
      </dl>
    </div>
  );
}

export interface GroupPopupProps {
  /** A station marker's: its name over the count; a cluster's: the count alone. */
  kind: 'station' | 'cluster';
  name?: string;
  count: number;
  /** Assets per display status (index = status code). */
  mix: readonly number[];
  responderMix: ResponderMix;
  x: number;
  y: number;
  placement?: string;
}

/**
 * A station marker's or a cluster's hover: the station's name, how many listed assets it holds,
 * and how many of each status (chosen: a cluster's colour says what most of its assets do; this
 * says what each does).
 */
export function GroupPopup({ kind, name, count, mix, responderMix, x, y, placement = '' }: GroupPopupProps) {
  return (
    <div
      className={`asset-popup asset-popup--station ${placement}`.trim()}
      style={{ left: x, top: y }}
      role="tooltip"
      data-testid={`${kind}-popup`}
    >
      {kind === 'station' ? (
        <>
          <strong className="asset-popup__name">{name}</strong>
          <div>{assetCountText(count)}</div>
        </>
      ) : (
        <strong className="asset-popup__name">{assetCountText(count)}</strong>
      )}
      <StatusMix mix={mix} responderMix={responderMix} />
    </div>
  );
}

function assetCountText(count: number): string {
  return count === 1 ? '1 asset' : `${count} assets`;
}

/** The count of each status present, most urgent first, each with its colour and its label by the responder mix. */
function StatusMix({ mix, responderMix }: { mix: readonly number[]; responderMix: ResponderMix }) {
  const present = mix.map((count, status) => ({ status, count })).filter((entry) => entry.count > 0);
  if (present.length === 0) return null;
  return (
    <ul className="asset-popup__mix" aria-label="By status">
      {present.map(({ status, count }) => (
        <li key={status}>
          <span className="asset-popup__mix-mark" style={{ background: `var(--status-${status})` }} aria-hidden="true" />
          <span>{statusLabel(status as AssetStatus, responderMix)}</span> <span className="asset-popup__mix-count">{count}</span>
        </li>
      ))}
    </ul>
  );
}
