/**
 * What one row of the Live list writes besides the names (part 1 §2 "Asset list"): the status
 * label by the responder mix, and one line of where or how fast — a moving (active) asset its
 * speed and compass direction, any other its street, else its last sync. Pure, so the list and its
 * tests read the same words.
 */
import { ASSET_STATUS, displayStatus, statusLabel, type ResponderMix } from '../../domain/asset-status';
import type { Asset } from '../../domain/asset';
import { formatDateTime } from '../../domain/time';

/** What a row reads of an asset (the worker's `AssetDetails` satisfies it). */
export type RowAsset = Pick<Asset, 'status' | 'inService' | 'speed' | 'courseDirection' | 'street' | 'heartbeatTime'>;

/** Speeds arrive in miles per hour (docs/api/seed.md). */
export const SPEED_UNIT = 'mph';
export const LAST_SYNC_PREFIX = 'Last sync';
export const NEVER_SYNCED = 'Never synced';

/** The CSS colour of a row's status mark: app.css's --status-N by display status (out of service = 6). */
export function statusColorVar(asset: Pick<Asset, 'status' | 'inService'>): string {
  return `var(--status-${displayStatus(asset.status, asset.inService)})`;
}

/** The computed status's label (an out-of-service asset keeps it; the row adds Out-of-Service). */
export function rowStatusLabel(asset: Pick<Asset, 'status'>, mix: ResponderMix): string {
  return statusLabel(asset.status, mix);
}

export function rowDetailText(asset: RowAsset, timeZone?: string | null): string {
  if (asset.status === ASSET_STATUS.active) {
    return [`${Math.round(asset.speed)} ${SPEED_UNIT}`, asset.courseDirection].filter(Boolean).join(' ');
  }
  if (asset.street) return asset.street;
  return asset.heartbeatTime === null ? NEVER_SYNCED : `${LAST_SYNC_PREFIX} ${formatDateTime(asset.heartbeatTime, timeZone)}`;
}

/** A type name as words ('arrow_board' → 'arrow board'; the row capitalizes it). */
export function rowTypeText(thingType: string | null): string {
  return thingType ? thingType.replace(/_/g, ' ') : '';
}
