/**
 * One row of the Live list (part 1 §2 "Asset list"): status colour, primary and secondary display
 * names, the status label by the responder mix, the type, and where or how fast; an out-of-service
 * row is taller (90 px, not 65) and says Out-of-Service. The row is a button: Tab reaches it,
 * Enter or a click targets the asset.
 */
import type { CSSProperties } from 'react';
import type { RowComponentProps } from 'react-window';
import type { ResponderMix } from '../../domain/asset-status';
import { MAP_TEXT } from '../../domain/labels';
import type { AssetDetails } from '../../domain/live-diff';
import { rowDetailText, rowStatusLabel, rowTypeText, statusColorVar } from './asset-row-text';

export interface AssetRowProps {
  rowAt(index: number): AssetDetails | null;
  mix: ResponderMix;
  timeZone: string | null;
  selectedId: string | null;
  onActivate(asset: AssetDetails): void;
  /** Keys that make react-window draw the rows again when they move (a diff, a fetched page). */
  version: number;
  page: number;
}

export function AssetRow({ index, style, ariaAttributes, rowAt, mix, timeZone, selectedId, onActivate }: RowComponentProps<AssetRowProps>) {
  const asset = rowAt(index);
  if (!asset) {
    return <div {...ariaAttributes} style={style} className="asset-row asset-row-pending" aria-busy="true" />;
  }
  const selected = asset.id === selectedId;
  const mark: CSSProperties = { background: statusColorVar(asset) };
  return (
    <div {...ariaAttributes} style={style} className="asset-row-slot">
      <button
        type="button"
        className={selected ? 'asset-row asset-row-selected' : 'asset-row'}
        aria-current={selected ? 'true' : undefined}
        data-asset-id={asset.id}
        onClick={() => onActivate(asset)}
      >
        <span className="asset-row-mark" style={mark} aria-hidden="true" />
        <span className="asset-row-body">
          <span className="asset-row-line">
            <span className="asset-row-name">{asset.primaryDisplayName}</span>
            <span className="asset-row-status">{rowStatusLabel(asset, mix)}</span>
          </span>
          <span className="asset-row-line asset-row-soft">
            <span className="asset-row-secondary">{asset.secondaryDisplayName ?? ''}</span>
            <span className="asset-row-type">{rowTypeText(asset.thingType)}</span>
          </span>
          <span className="asset-row-detail asset-row-soft">{rowDetailText(asset, timeZone)}</span>
          {!asset.inService && <span className="asset-row-oos">{MAP_TEXT.outOfService}</span>}
        </span>
      </button>
    </div>
  );
}
