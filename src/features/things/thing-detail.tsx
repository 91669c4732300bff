/**
 * /dashboard/things/{thingId} (part 1 §2 "Asset detail"): the asset's Status, actions,
 * Profile and Organization Access, read from the live worker's selection (the store's
 * `selection.asset`, refreshed by every diff in which the asset changed). Back clears the target.
 */
import { useEffect, useRef } from 'react';
import { useNavigate, useOutletContext, useParams } from 'react-router-dom';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { setTarget } from '../../app/map/map-state';
import { useLive } from '../../app/live/hooks';
import { DetailHeader } from '../../app/section/detail-header';
import { focusOn, isFocused } from '../../app/section/focus-on';
import { itemHref } from '../../app/section/item-href';
import { ItemState } from '../../app/section/item-state';
import { ASSET_LABEL_SINGULAR } from '../../domain/constants';
import type { LatLng } from '../../domain/geometry';
import { ASSET_TEXT } from '../../domain/labels';
import { canEditAsset, type PermissionList } from '../../domain/permissions';
import { AssetActions } from './asset-actions';
import { AssetProfileSection } from './asset-profile-section';
import { AssetStatusSection } from './asset-status-section';
import { OrganizationAccessSection } from './organization-access-section';
import { thingEditHref } from './thing-paths';
import { useSelectedAsset, type SelectedAssetState } from './use-selected-asset';
import './thing-detail.css';

/** Back from an asset page: the target and the selection are cleared, then the list. */
export function useBackToList(): () => void {
  const { map } = useOutletContext<ShellContext>();
  const { bridge } = useLive();
  const navigate = useNavigate();
  return () => {
    setTarget(map, null);
    void bridge?.select(null).catch(() => undefined);
    navigate(itemHref('things'));
  };
}

/** An asset page without its asset: still loading, or not in the fleet (part 1 §2). */
export function AssetPending({ state, className, onBack }: { state: SelectedAssetState; className: string; onBack: () => void }) {
  return (
    <ItemState
      className={className}
      state={state === 'missing' ? 'missing' : 'loading'}
      texts={{ notFound: ASSET_TEXT.notFound, loading: ASSET_TEXT.loading }}
      header={<DetailHeader title={ASSET_LABEL_SINGULAR} onBack={onBack} />}
    />
  );
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
    const target = { kind: 'asset', id: thingId } as const;
    if (state !== 'found' || isFocused(map, target)) return;
    focusOn(map, target, position.current);
  }, [map, thingId, state]);

  if (!asset) return <AssetPending className="thing-detail" state={state} onBack={back} />;
  return (
    <div className="thing-detail">
      <DetailHeader
        title={asset.primaryDisplayName}
        subtitle={asset.secondaryDisplayName}
        onBack={back}
        editHref={canEditAsset(permissions) ? thingEditHref(asset.id) : null}
        editLabel={ASSET_TEXT.edit}
      />
      <AssetStatusSection asset={asset} mix={mix} timeZone={profile.timezone} />
      <AssetActions asset={asset} permissions={permissions} />
      <AssetProfileSection asset={asset} />
      <OrganizationAccessSection asset={asset} profile={profile} />
    </div>
  );
}
