/**
 * /dashboard/closures/{closureId} (part 2 §2 Closures "The detail view shows status, start and end
 * time, association, type, start and end street and position, alert message, direction of travel,
 * impacted lanes, a WZDx block and owner. It has Edit and Delete buttons"): Edit and Delete by
 * permission (part 2 §6); a feed closure is read-only, managed by the WZDx feed (part 2 §4).
 */
import { useNavigate, useOutletContext, useParams } from 'react-router-dom';
import { setTarget } from '../../app/map/map-state';
import { DetailHeader } from '../../app/section/detail-header';
import { useFocusOnOpen } from '../../app/section/focus-on';
import { itemHref } from '../../app/section/item-href';
import { ItemState } from '../../app/section/item-state';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { isFeedManaged, type Closure } from '../../domain/closure';
import type { LatLng } from '../../domain/geometry';
import { wzdxValueLabel } from '../../domain/wzdx';
import { CLOSURE_TEXT } from '../../domain/labels';
import { canDeleteClosure, canEditClosure, orgRelationsOf, type PermissionList } from '../../domain/permissions';
import { formatDateTime } from '../../domain/time';
import { CLOSURE_QUERIES, useClosureCalls } from './calls';
import { useClosure } from './closures-context';
import { ClosureStatusIcon } from './closure-status-icon';
import { focusClosure } from './focus-closure';
import { useRefreshClosures } from './use-closures';

const position = (p: LatLng | undefined): string => (p ? `${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}` : CLOSURE_TEXT.none_);
const orNone = (value: string | null | undefined): string => (value ? value : CLOSURE_TEXT.none_);

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

export function ClosureFields({ closure, timeZone }: { closure: Closure; timeZone: string | null }) {
  const time = (ms: number | null) => (ms === null ? CLOSURE_TEXT.none_ : formatDateTime(ms, timeZone));
  return (
    <>
      <dl className="closure-fields">
        <Row label={CLOSURE_TEXT.status} value={CLOSURE_TEXT.statuses[closure.status]} />
        <Row label={CLOSURE_TEXT.startTime} value={time(closure.startTime)} />
        <Row label={CLOSURE_TEXT.endTime} value={time(closure.endTime)} />
        <Row label={CLOSURE_TEXT.association} value={closure.thingDisplayName || CLOSURE_TEXT.none_} />
        <Row label={CLOSURE_TEXT.closureType} value={CLOSURE_TEXT.types[closure.closureType]} />
        <Row label={CLOSURE_TEXT.streetStart} value={orNone(closure.streetStart)} />
        <Row label={CLOSURE_TEXT.positionStart} value={position(closure.routePath[0])} />
        <Row label={CLOSURE_TEXT.streetEnd} value={orNone(closure.streetEnd)} />
        <Row label={CLOSURE_TEXT.positionEnd} value={position(closure.routePath[closure.routePath.length - 1])} />
        <Row label={CLOSURE_TEXT.alertMessage} value={orNone(closure.alertMessage)} />
        <Row label={CLOSURE_TEXT.direction} value={closure.direction ? CLOSURE_TEXT.directions[closure.direction] : CLOSURE_TEXT.none_} />
        <Row
          label={CLOSURE_TEXT.impactedLanes}
          value={closure.impactedLanes.length > 0 ? closure.impactedLanes.join(', ') : CLOSURE_TEXT.none_}
        />
        <Row label={CLOSURE_TEXT.owner} value={orNone(closure.orgName)} />
      </dl>
      <section className="closure-wzdx" aria-labelledby="closure-wzdx-title">
        <h2 id="closure-wzdx-title">{CLOSURE_TEXT.wzdxBlock}</h2>
        <dl className="closure-fields">
          <Row
            label={CLOSURE_TEXT.publish}
            value={closure.closureType === 'feed' ? CLOSURE_TEXT.no : closure.isPublishOn ? CLOSURE_TEXT.yes : CLOSURE_TEXT.no}
          />
          <Row label={CLOSURE_TEXT.wzdxId} value={orNone(closure.wzdxId)} />
          <Row label={CLOSURE_TEXT.locationMethod} value={orNone(closure.locationMethod && wzdxValueLabel(closure.locationMethod))} />
          <Row label={CLOSURE_TEXT.vehicleImpact} value={orNone(closure.vehicleImpact && wzdxValueLabel(closure.vehicleImpact))} />
          <Row label={CLOSURE_TEXT.groupId} value={orNone(closure.groupId)} />
          <Row label={CLOSURE_TEXT.compliant} value={closure.isWzdxCompliant ? CLOSURE_TEXT.yes : CLOSURE_TEXT.no} />
        </dl>
      </section>
    </>
  );
}

/** Back from a closure page: the target is cleared, then the list. */
export function useBackToClosures(): () => void {
  const { map } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  return () => {
    setTarget(map, null);
    navigate(itemHref('closures'));
  };
}

export function ClosureDetail() {
  const { closureId = '' } = useParams();
  const { profile, mobile, map } = useOutletContext<ShellContext>();
  const lookup = useClosure(closureId);
  const back = useBackToClosures();
  const calls = useClosureCalls();
  const refresh = useRefreshClosures();
  const permissions = profile.permissions as PermissionList;
  const closure = lookup.state === 'found' ? lookup.closure : null;

  // A deep link (or a map click) targets the closure and fits its path, as a list click does (part 1 §2).
  useFocusOnOpen(map, { kind: 'closure', id: closureId }, closure, focusClosure);

  if (!closure) {
    return (
      <ItemState
        className="closure-detail"
        state={lookup.state === 'missing' ? 'missing' : 'loading'}
        texts={{ notFound: CLOSURE_TEXT.notFound, loading: CLOSURE_TEXT.loading }}
        header={<DetailHeader title={CLOSURE_TEXT.singular} onBack={back} />}
      />
    );
  }
  // An accessor organization's closures are read-only here as on the server (writesOrg).
  const context = { mobile, relations: orgRelationsOf(profile) };
  const feed = isFeedManaged(closure);
  const canEdit = canEditClosure(permissions, closure, context);
  const canDelete = canDeleteClosure(permissions, closure, context);
  return (
    <section className="closure-detail" aria-labelledby="section-title">
      <DetailHeader
        title={closure.description}
        subtitle={closure.secondaryDisplayName}
        icon={<ClosureStatusIcon status={closure.status} />}
        onBack={back}
        editHref={canEdit ? itemHref('closures', closure.id, { page: 'edit' }) : null}
        editLabel={CLOSURE_TEXT.edit}
        // A feed's closure is not edited here at all (the note below says why); otherwise a user who
        // may not sees the buttons disabled, 'Not authorized' (part 2 §6).
        refused={feed ? null : { edit: !canEdit, deleteLabel: canDelete ? null : CLOSURE_TEXT.delete }}
        remove={
          canDelete
            ? {
                label: CLOSURE_TEXT.delete,
                itemName: closure.description,
                send: () => calls.remove(closure.id),
                context: 'closureDelete',
                invalidates: [CLOSURE_QUERIES.all],
                onDeleted: () => {
                  void refresh();
                  back();
                },
              }
            : null
        }
      />
      {feed && (
        <p className="detail-info closure-feed-note" role="note">
          {CLOSURE_TEXT.feedManaged}
        </p>
      )}
      <ClosureFields closure={closure} timeZone={profile.timezone} />
    </section>
  );
}
