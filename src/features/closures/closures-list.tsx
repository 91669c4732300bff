/**
 * /dashboard/closures (part 2 §2 Closures, §4 "Closure lists and permissions"): the search, the
 * filters by type, status and online/offline/out-of-service (defaults: types automated, feed and
 * manual; statuses active, standby and pending), 'Showing (x/total)', the add-new button when the
 * user may create, and the rows (70 or 90 px). A manual closure's quick toggle (part 2 §4
 * "Closure quick toggle") shows the new state at once and reverts when the call fails, with
 * 'Unable to Activate/Deactivate'.
 */
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate, useOutletContext } from 'react-router-dom';
import { userErrorOf } from '../../app/api-client';
import { itemHref } from '../../app/section/item-href';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { ListFrame } from '../../app/section/list-frame';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { CONNECTION_GROUPS } from '../../domain/asset-status';
import { CLOSURE_STATUSES, CLOSURE_TYPES, closureListRows, closureRowHeight, type Closure, type ClosureFilter } from '../../domain/closure';
import { CLOSURE_TEXT, WZDX_FEEDS_TEXT } from '../../domain/labels';
import { canAddClosure, canEditClosure, orgRelationsOf, type PermissionList } from '../../domain/permissions';
import { useClosureCalls } from './calls';
import { useClosuresData } from './closures-context';
import { ClosureRow, type ClosureRowProps } from './closure-row';
import { focusClosure } from './focus-closure';
import { useRefreshClosures } from './use-closures';

function toggled<T>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}

function CheckGroup<T extends string>({
  legend,
  options,
  labels,
  chosen,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  labels: Readonly<Record<T, string>>;
  chosen: readonly T[];
  onChange(next: T[]): void;
}) {
  return (
    <fieldset className="closure-filter-group">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} className="closure-filter-option">
          <input type="checkbox" checked={chosen.includes(option)} onChange={(e) => onChange(toggled(chosen, option, e.target.checked))} />
          {labels[option]}
        </label>
      ))}
    </fieldset>
  );
}

export function ClosureFilters({ filter, onChange }: { filter: ClosureFilter; onChange(filter: ClosureFilter): void }) {
  return (
    <details className="closure-filters">
      <summary>{CLOSURE_TEXT.filters}</summary>
      <CheckGroup
        legend={CLOSURE_TEXT.type}
        options={CLOSURE_TYPES}
        labels={CLOSURE_TEXT.types}
        chosen={filter.types}
        onChange={(types) => onChange({ ...filter, types })}
      />
      <CheckGroup
        legend={CLOSURE_TEXT.status}
        options={CLOSURE_STATUSES}
        labels={CLOSURE_TEXT.statuses}
        chosen={filter.statuses}
        onChange={(statuses) => onChange({ ...filter, statuses })}
      />
      <CheckGroup
        legend={CLOSURE_TEXT.connection}
        options={CONNECTION_GROUPS}
        labels={CLOSURE_TEXT.connections}
        chosen={filter.connections}
        onChange={(connections) => onChange({ ...filter, connections })}
      />
    </details>
  );
}

export function ClosuresList() {
  const { profile, mobile, map } = useOutletContext<ShellContext>();
  const { closures, loaded, filter, setFilter } = useClosuresData();
  const calls = useClosureCalls();
  const refresh = useRefreshClosures();
  const navigate = useNavigate();
  const permissions = profile.permissions as PermissionList;
  const [toggling, setToggling] = useState<Record<string, boolean>>({});
  const [toggleError, setToggleError] = useState<string | null>(null);
  // Ending a closure the WZDx feed publishes reaches drivers' apps: the toggle asks first.
  const [confirming, setConfirming] = useState<Closure | null>(null);

  const rows = useMemo(() => closureListRows(closures, filter), [closures, filter]);

  const open = useCallback(
    (closure: Closure) => {
      focusClosure(map, closure);
      navigate(itemHref('closures', closure.id));
    },
    [map, navigate],
  );

  const toggle = useCallback(
    async (closure: Closure, activate: boolean) => {
      setToggleError(null);
      setToggling((t) => ({ ...t, [closure.id]: activate }));
      try {
        await calls.toggle(closure.id, activate, Date.now());
        await refresh();
      } catch (error) {
        setToggleError(userErrorOf(error, 'closureToggle').text);
      } finally {
        setToggling(({ [closure.id]: _done, ...rest }) => rest);
      }
    },
    [calls, refresh],
  );

  const rowHeight = useCallback((index: number, props: ClosureRowProps) => {
    const closure = props.closures[index];
    return closure ? closureRowHeight(closure) : 0;
  }, []);

  const context = { mobile };
  const relations = useMemo(() => orgRelationsOf(profile), [profile]);
  return (
    <ListFrame
      className="closures-list"
      title={CLOSURE_TEXT.list}
      addNew={{ href: canAddClosure(permissions, context) ? itemHref('closures', 'new') : null, label: CLOSURE_TEXT.addNew }}
      search={{
        value: filter.search,
        onSearch: (search) => setFilter({ ...filter, search }),
        label: CLOSURE_TEXT.search,
        placeholder: CLOSURE_TEXT.searchPlaceholder,
        maxLength: 200,
      }}
      filters={
        <>
          <ClosureFilters filter={filter} onChange={setFilter} />
          {/* Beyond the spec: the WZDx feeds this organization imports as feed closures. */}
          <Link className="closures-wzdx-feeds-link" to={itemHref('closures', 'wzdx-feeds')}>
            {WZDX_FEEDS_TEXT.open}
          </Link>
        </>
      }
      shown={rows.length}
      total={closures.length}
      empty={
        !loaded ? (
          <p role="status">{CLOSURE_TEXT.loading}</p>
        ) : rows.length === 0 ? (
          <p className="closures-none">{CLOSURE_TEXT.none}</p>
        ) : undefined
      }
      rows={{
        className: 'closures-rows',
        label: CLOSURE_TEXT.list,
        role: 'list',
        rowComponent: ClosureRow,
        rowCount: rows.length,
        rowHeight,
        rowProps: {
          closures: rows,
          toggling,
          canToggle: (closure: Closure) => canEditClosure(permissions, closure, { mobile, relations }),
          onOpen: open,
          onToggle: (closure, activate) => {
            if (!activate && closure.isPublishOn) setConfirming(closure);
            else void toggle(closure, activate);
          },
        },
      }}
    >
      {toggleError && (
        <p className="form-alert form-alert-error closures-toggle-error" role="alert">
          {toggleError}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={CLOSURE_TEXT.deactivateTitle(confirming.description)}
          body={CLOSURE_TEXT.deactivatePublishedBody}
          confirmLabel={CLOSURE_TEXT.deactivate}
          pending={false}
          failure={null}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            void toggle(confirming, false);
          }}
        />
      )}
    </ListFrame>
  );
}
