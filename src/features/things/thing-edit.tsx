/**
 * /dashboard/things/{thingId}/edit (part 1 §2 "Asset routes"): tabs profile and
 * associations (the kit's keyboard-operable tablist, the tab in the URL). The associations tab
 * (the organization access edit) shows only per `showsOrganizationAccessEdit` (part 1 §5).
 */
import { useNavigate, useOutletContext, useParams } from 'react-router-dom';
import { DetailHeader } from '../../app/section/detail-header';
import { Tabs, useTabParam } from '../../app/section/tabs';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { ASSET_LABEL_SINGULAR } from '../../domain/constants';
import { ASSET_TEXT, PAGE_TEXT } from '../../domain/labels';
import type { AssetDetails } from '../../domain/live-diff';
import { canEditAsset, showsOrganizationAccessEdit, type PermissionList } from '../../domain/permissions';
import type { Profile } from '../../domain/profile';
import { AssetAssociationsForm } from './asset-associations-form';
import { AssetProfileForm } from './asset-profile-form';
import { AssetPending } from './thing-detail';
import { thingHref, type ThingEditTab } from './thing-paths';
import { useSelectedAsset } from './use-selected-asset';
import './thing-detail.css';

const TAB_LABEL: Readonly<Record<ThingEditTab, string>> = {
  profile: ASSET_TEXT.profile,
  associations: ASSET_TEXT.associations,
};

export function ThingEdit() {
  const { thingId = '' } = useParams();
  const { profile } = useOutletContext<ShellContext>();
  const { asset, state } = useSelectedAsset(thingId);
  const navigate = useNavigate();
  const permissions = profile.permissions as PermissionList;
  const back = () => navigate(thingHref(thingId));

  if (!canEditAsset(permissions)) {
    return (
      <div className="thing-edit">
        <DetailHeader title={ASSET_LABEL_SINGULAR} onBack={back} />
        <p role="alert">{PAGE_TEXT.unauthorized}</p>
      </div>
    );
  }
  // An asset of the fleet snapshot waits for its page: its forms would start without its external
  // identifiers and relations, and saving the relations replaces them (docs/decisions/spec.md).
  if (!asset || asset.detailsPending) return <AssetPending className="thing-edit" state={asset ? 'loading' : state} onBack={back} />;
  return <AssetEditTabs asset={asset} profile={profile} permissions={permissions} onBack={back} />;
}

function AssetEditTabs({
  asset,
  profile,
  permissions,
  onBack,
}: {
  asset: AssetDetails;
  profile: Profile;
  permissions: PermissionList;
  onBack: () => void;
}) {
  const keys: ThingEditTab[] = showsOrganizationAccessEdit(permissions, {
    assetRelations: asset.organizationRelationships.length,
    subscribedOrgRelations: profile.managedOrgs.length + profile.accessedOrgs.length,
  })
    ? ['profile', 'associations']
    : ['profile'];
  const [tab, choose] = useTabParam(keys);
  return (
    <div className="thing-edit">
      <DetailHeader title={asset.primaryDisplayName} subtitle={asset.secondaryDisplayName} onBack={onBack} />
      <Tabs
        tabs={keys.map((key) => ({ key, label: TAB_LABEL[key] }))}
        selected={tab}
        onSelect={choose}
        label={`${ASSET_TEXT.edit} ${ASSET_LABEL_SINGULAR}`}
        idPrefix="asset"
      >
        {tab === 'profile' ? <AssetProfileForm key={asset.id} asset={asset} /> : <AssetAssociationsForm key={asset.id} asset={asset} />}
      </Tabs>
    </div>
  );
}
