/**
 * /dashboard/things/{thingId}/edit (part 1 §2 "Asset routes"): tabs profile and
 * associations as a keyboard-operable tablist (arrows, Home, End). The associations tab (the
 * organization access edit) shows only per `showsOrganizationAccessEdit` (part 1 §5).
 */
import { useRef, type KeyboardEvent } from 'react';
import { useNavigate, useOutletContext, useParams, useSearchParams } from 'react-router-dom';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { ASSET_LABEL_SINGULAR } from '../../domain/constants';
import { ASSET_TEXT, PAGE_TEXT } from '../../domain/labels';
import { canEditAsset, showsOrganizationAccessEdit, type PermissionList } from '../../domain/permissions';
import { AssetAssociationsForm } from './asset-associations-form';
import { AssetProfileForm } from './asset-profile-form';
import { ThingHeader } from './thing-detail';
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
  const [params, setParams] = useSearchParams();
  const tabRefs = useRef<Partial<Record<ThingEditTab, HTMLButtonElement | null>>>({});
  const permissions = profile.permissions as PermissionList;
  const back = () => navigate(thingHref(thingId));

  if (!canEditAsset(permissions)) {
    return (
      <div className="thing-edit">
        <ThingHeader title={ASSET_LABEL_SINGULAR} onBack={back} />
        <p role="alert">{PAGE_TEXT.unauthorized}</p>
      </div>
    );
  }
  if (!asset) {
    return (
      <div className="thing-edit">
        <ThingHeader title={ASSET_LABEL_SINGULAR} onBack={back} />
        {state === 'missing' ? <p role="alert">{ASSET_TEXT.notFound}</p> : <p role="status">{ASSET_TEXT.loading}</p>}
      </div>
    );
  }

  const tabs: ThingEditTab[] = showsOrganizationAccessEdit(permissions, {
    assetRelations: asset.organizationRelationships.length,
    subscribedOrgRelations: profile.managedOrgs.length + profile.accessedOrgs.length,
  })
    ? ['profile', 'associations']
    : ['profile'];
  const asked = params.get('tab');
  const tab: ThingEditTab = tabs.find((candidate) => candidate === asked) ?? 'profile';
  const choose = (next: ThingEditTab, focus = false) => {
    setParams(next === 'profile' ? {} : { tab: next }, { replace: true });
    if (focus) tabRefs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = tabs.indexOf(tab);
    const to =
      event.key === 'ArrowRight' ? (at + 1) % tabs.length
      : event.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? tabs.length - 1
      : -1;
    const next = tabs[to];
    if (to < 0 || !next) return;
    event.preventDefault();
    choose(next, true);
  };

  return (
    <div className="thing-edit">
      <ThingHeader title={asset.primaryDisplayName} subtitle={asset.secondaryDisplayName} onBack={back} />
      <div className="tabs" role="tablist" aria-label={`${ASSET_TEXT.edit} ${ASSET_LABEL_SINGULAR}`}>
        {tabs.map((candidate) => (
          <button
            key={candidate}
            ref={(element) => {
              tabRefs.current[candidate] = element;
            }}
            type="button"
            role="tab"
            id={`asset-tab-${candidate}`}
            className="tab"
            aria-selected={candidate === tab}
            aria-controls={`asset-panel-${candidate}`}
            tabIndex={candidate === tab ? 0 : -1}
            onClick={() => choose(candidate)}
            onKeyDown={onKeyDown}
          >
            {TAB_LABEL[candidate]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`asset-panel-${tab}`} aria-labelledby={`asset-tab-${tab}`}>
        {tab === 'profile' ? <AssetProfileForm key={asset.id} asset={asset} /> : <AssetAssociationsForm key={asset.id} asset={asset} />}
      </div>
    </div>
  );
}
