/**
 * /dashboard/closures/new and /{closureId}/edit (part 2 §2 Closures, §6): the closure form, for a
 * user who may add (or edit) closures — the mobile closure permissions on a phone (part 2 §2). A
 * feed closure is not edited: the WZDx feed manages it (part 2 §4). After a save the worker loads
 * what changed and the page shows the saved closure.
 */
import { useMemo } from 'react';
import { useNavigate, useOutletContext, useParams } from 'react-router-dom';
import { useApiQuery } from '../../app/use-api-query';
import { DetailHeader } from '../../app/section/detail-header';
import { itemHref } from '../../app/section/item-href';
import { ItemState } from '../../app/section/item-state';
import { useFocusOnOpen } from '../../app/section/focus-on';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { isFeedManaged, type Closure } from '../../domain/closure';
import { CLOSURE_TEXT, PAGE_TEXT } from '../../domain/labels';
import { canAddClosure, canEditClosure, orgRelationsOf, type PermissionList } from '../../domain/permissions';
import { CLOSURE_QUERIES, useClosureCalls } from './calls';
import { useClosure, useClosuresData } from './closures-context';
import { ClosureForm } from './closure-form';
import { focusClosure } from './focus-closure';
import { useRefreshClosures } from './use-closures';

function Refused({ title, onBack, text }: { title: string; onBack(): void; text: string }) {
  return (
    <section className="closure-edit" aria-labelledby="section-title">
      <DetailHeader title={title} onBack={onBack} />
      <p role="alert">{text}</p>
    </section>
  );
}

function ClosureFormPage({ closure, title, onBack }: { closure: Closure | null; title: string; onBack(): void }) {
  const { organizationId } = useOutletContext<ShellContext>();
  const { closures } = useClosuresData();
  const calls = useClosureCalls();
  const refresh = useRefreshClosures();
  const navigate = useNavigate();
  const orgId = closure?.orgId || organizationId;
  const org = useApiQuery({ key: CLOSURE_QUERIES.organization(orgId), load: () => calls.organization(orgId) });
  const groupIds = useMemo(() => [...new Set(closures.map((c) => c.groupId).filter((g): g is string => Boolean(g)))].sort(), [closures]);
  return (
    <section className="closure-edit" aria-labelledby="section-title">
      <DetailHeader title={title} subtitle={closure?.description ?? null} onBack={onBack} />
      {org.isPending ? (
        <p role="status">{CLOSURE_TEXT.loading}</p>
      ) : (
        <ClosureForm
          closure={closure}
          organizationId={orgId}
          isWzdxOrg={org.data?.isWzdxOrg ?? false}
          groupIds={groupIds}
          onCancel={onBack}
          onSaved={(saved) => {
            void refresh().then(() => navigate(itemHref('closures', saved.id)));
          }}
        />
      )}
    </section>
  );
}

export function ClosureNew() {
  const { profile, mobile } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const back = () => navigate(itemHref('closures'));
  if (!canAddClosure(profile.permissions as PermissionList, { mobile })) {
    return <Refused title={CLOSURE_TEXT.newTitle} onBack={back} text={PAGE_TEXT.unauthorized} />;
  }
  return <ClosureFormPage closure={null} title={CLOSURE_TEXT.newTitle} onBack={back} />;
}

export function ClosureEdit() {
  const { closureId = '' } = useParams();
  const { profile, mobile, map } = useOutletContext<ShellContext>();
  const lookup = useClosure(closureId);
  // A deep link or a reload frames the closure as its Edit button's page does (part 1 §2), not the region.
  useFocusOnOpen(map, { kind: 'closure', id: closureId }, lookup.state === 'found' ? lookup.closure : null, focusClosure);
  const navigate = useNavigate();
  const back = () => navigate(itemHref('closures', closureId));
  if (lookup.state !== 'found') {
    return (
      <ItemState
        className="closure-edit"
        state={lookup.state === 'missing' ? 'missing' : 'loading'}
        texts={{ notFound: CLOSURE_TEXT.notFound, loading: CLOSURE_TEXT.loading }}
        header={<DetailHeader title={CLOSURE_TEXT.editTitle} onBack={back} />}
      />
    );
  }
  const { closure } = lookup;
  if (isFeedManaged(closure)) return <Refused title={CLOSURE_TEXT.editTitle} onBack={back} text={CLOSURE_TEXT.feedManaged} />;
  if (!canEditClosure(profile.permissions as PermissionList, closure, { mobile, relations: orgRelationsOf(profile) })) {
    return <Refused title={CLOSURE_TEXT.editTitle} onBack={back} text={PAGE_TEXT.unauthorized} />;
  }
  return <ClosureFormPage key={closure.id} closure={closure} title={CLOSURE_TEXT.editTitle} onBack={back} />;
}
