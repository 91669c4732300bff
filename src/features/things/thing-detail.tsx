/**
 * /dashboard/things/{thingId} (part 1 §2 "Asset detail"): the asset's Status, actions,
 * Profile and Organization Access, read from the live worker's selection (the store's
 * `selection.asset`, refreshed by every diff in which the asset changed). Back clears the target.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router-dom';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { centerOn, setTarget } from '../../app/map/map-state';
import { useLive } from '../../app/live/hooks';
import { ASSET_LABEL_SINGULAR, CENTERING_MIN_ZOOM } from '../../domain/constants';
import type { LatLng } from '../../domain/geometry';
import { ASSET_TEXT } from '../../domain/labels';
import { canEditAsset, type PermissionList } from '../../domain/permissions';
import { AssetActions } from './asset-actions';
import { AssetProfileSection } from './asset-profile-section';
import { AssetStatusSection } from './asset-status-section';
import { OrganizationAccessSection } from './organization-access-section';
import { THINGS_PATH, thingEditHref } from './thing-paths';
import { useSelectedAsset } from './use-selected-asset';
import './thing-detail.css';

/** The header of the detail and edit pages: Back (clears the target, part 1 §2) and the title. */
export function ThingHeader({ title, subtitle, onBack, children }: { title: string; subtitle?: string | null; onBack: () => void; children?: ReactNode }) {
  return (
    <header className="detail-header">
      <button type="button" className="button button-secondary detail-back" onClick={onBack}>
        <span aria-hidden="true">‹</span> {ASSET_TEXT.back}
      </button>
      <div className="detail-title">
        <h1 id="section-title">{title}</h1>
        {subtitle && <p className="detail-subtitle">{subtitle}</p>}
      </div>
      {children}
    </header>
  );
}

/** Back from an asset page: the target and the selection are cleared, then the list. */
export function useBackToList(): () => void {
  const { map } = useOutletContext<ShellContext>();
  const { bridge } = useLive();
  const navigate = useNavigate();
  return () => {
    setTarget(map, null);
    void bridge?.select(null).catch(() => undefined);
    navigate(THINGS_PATH);
  };
}

export function ThingDetail() {
  const { thingId = '' } = useParams();
  const { profile, map, mix } = useOutletContext<ShellContext>();
  const { asset, state } = useSelectedAsset(thingId);
  const back = useBackToList();
  const permissions = profile.permissions as PermissionList;

  // A deep link targets the asset on the map and pans to it as a list click does (part 1 §2); a
  // list or map click targeted it already (and showed it). Its later moves do not move the map.
  const position = useRef<LatLng | null>(null);
  position.current = asset?.position ?? null;
  useEffect(() => {
    if (state !== 'found' || (map.target?.kind === 'asset' && map.target.id === thingId)) return;
    setTarget(map, { kind: 'asset', id: thingId });
    const at = position.current;
    if (at) centerOn(map, at.lng, at.lat, Math.max(map.view.zoom, CENTERING_MIN_ZOOM));
  }, [map, thingId, state]);

  if (!asset) {
    return (
      <div className="thing-detail">
        <ThingHeader title={ASSET_LABEL_SINGULAR} onBack={back} />
        {state === 'missing' ? <p role="alert">{ASSET_TEXT.notFound}</p> : <p role="status">{ASSET_TEXT.loading}</p>}
      </div>
    );
  }
  return (
    <div className="thing-detail">
      <ThingHeader title={asset.primaryDisplayName} subtitle={asset.secondaryDisplayName} onBack={back}>
        {canEditAsset(permissions) && (
          <Link className="button button-primary detail-edit" to={thingEditHref(asset.id)}>
            {ASSET_TEXT.edit}
          </Link>
        )}
      </ThingHeader>
      <AssetStatusSection asset={asset} mix={mix} timeZone={profile.timezone} />
      <AssetActions asset={asset} permissions={permissions} />
      <AssetProfileSection asset={asset} />
      <OrganizationAccessSection asset={asset} profile={profile} />
    </div>
  );
}
