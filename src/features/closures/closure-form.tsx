/**
 * The closure form of /new and /{closureId}/edit (part 2 §2 "The form has these parts", §4
 * "Closure form modes", §5 Closure, §8 Closure save, Route drawing):
 * - the display-closure switch (the drawn path shown on the map while the form is open);
 * - the path, drawn on the map (`startDrawing`, kind 'line': start, turns, end) and routed along
 *   the roads by the map's directions service (`pathRouter`, part 2 §7: Google's Directions with a
 *   Google key, else — or when Google cannot load — the server's offline router); when no route is
 *   found the straight drawn path is kept and the service's message shown (part 2 §8 "The service
 *   message, or 'Something went wrong'"); the start and end street names come from the route;
 * - asset association (an automated closure hides the status section);
 * - description (100) and alert message (40) with counters; direction (required for WZDx
 *   organizations); impacted lanes 1–9;
 * - status: active (an end time), scheduled (start and end; active on save when the start is
 *   past), inactive (no times); the switches disable each other; pickers from now to 3 months
 *   ahead, by the minute;
 * - WZDx fields when publishing: unique id (≤ 100, required), location method and vehicle impact
 *   (required), group id (free text or an existing one).
 * Each §5 text shows under its field; a failed save's catalogue text under the form.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useOutletContext } from 'react-router-dom';
import { userErrorOf } from '../../app/api-client';
import { useFleetList } from '../../app/fleet-list';
import { finishDrawing, pathRouter, startDrawing } from '../../app/map/map-state';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { SubmitFailure } from '../../app/section/item-state';
import { useSubmit } from '../../app/section/use-submit';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { LeaveGuard } from '../../app/ui/leave-guard';
import { Toggle } from '../../app/ui/toggle';
import { toClosurePayload, type Closure, type ClosureWire } from '../../domain/closure';
import {
  applyClosureMode,
  closureFormStatusFrom,
  closurePickerRange,
  closureSwitchesDisabled,
  closureTimesOnSave,
  hidesStatusSection,
  type ClosureFormMode,
} from '../../domain/closure-form';
import {
  CLOSURE_ALERT_MESSAGE_MAX,
  CLOSURE_DESCRIPTION_MAX,
  CLOSURE_DIRECTIONS,
  IMPACTED_LANES_MAX,
  IMPACTED_LANES_MIN,
  WZDX_ID_MAX,
  type ClosureDirection,
} from '../../domain/constants';
import type { LatLng } from '../../domain/geometry';
import { readDateInput, toMinuteInput } from '../../domain/time';
import { CLOSURE_TEXT } from '../../domain/labels';
import { closureFormSchema } from '../../domain/validation/closure';
import { sameFormValues } from '../../domain/validation/field-state';
import { WZDX_LOCATION_METHODS, WZDX_VEHICLE_IMPACTS, wzdxValueLabel } from '../../domain/wzdx';
import { closuresLayers } from '../../map/layers/closures-layer';
import { useClosureCalls } from './calls';

const LANES = Array.from({ length: IMPACTED_LANES_MAX - IMPACTED_LANES_MIN + 1 }, (_, i) => i + IMPACTED_LANES_MIN);

export interface ClosureFormValues {
  isDisplayed: boolean;
  thingId: string;
  description: string;
  alertMessage: string;
  direction: ClosureDirection | '';
  impactedLanes: number[];
  userRoute: LatLng[];
  routePath: LatLng[];
  streetStart: string;
  streetEnd: string;
  isActive: boolean;
  isScheduled: boolean;
  startTime: number | null;
  endTime: number | null;
  isPublishOn: boolean;
  wzdxId: string;
  locationMethod: string;
  vehicleImpact: string;
  groupId: string;
}

/** The form's starting values: a new closure (manual, inactive, not published) or an existing one. */
export function closureFormValues(closure: Closure | null): ClosureFormValues {
  if (!closure) {
    return {
      isDisplayed: true,
      thingId: '',
      description: '',
      alertMessage: '',
      direction: '',
      impactedLanes: [],
      userRoute: [],
      routePath: [],
      streetStart: '',
      streetEnd: '',
      isActive: false,
      isScheduled: false,
      startTime: null,
      endTime: null,
      isPublishOn: false,
      wzdxId: '',
      locationMethod: '',
      vehicleImpact: '',
      groupId: '',
    };
  }
  const status = closureFormStatusFrom(closure);
  return {
    isDisplayed: true,
    thingId: closure.closureType === 'automated' ? (closure.thingId ?? '') : '',
    description: closure.description,
    alertMessage: closure.alertMessage,
    direction: closure.direction ?? '',
    impactedLanes: [...closure.impactedLanes],
    userRoute: closure.userRoute.length >= 2 ? closure.userRoute : closure.routePath,
    routePath: closure.routePath,
    streetStart: closure.streetStart,
    streetEnd: closure.streetEnd,
    isActive: status.isActive,
    isScheduled: status.isScheduled,
    startTime: status.startTime,
    endTime: status.endTime,
    isPublishOn: closure.isPublishOn,
    wzdxId: closure.wzdxId ?? '',
    locationMethod: closure.locationMethod ?? '',
    vehicleImpact: closure.vehicleImpact ?? '',
    groupId: closure.groupId ?? '',
  };
}

/** part 2 §4: a status switch turned on or off (the domain's rule for the times and the other switch). */
export function switchMode(values: ClosureFormValues, mode: ClosureFormMode): Partial<ClosureFormValues> {
  const { isActive, isScheduled, startTime, endTime } = applyClosureMode(
    { closureType: values.thingId ? 'automated' : 'manual', thingId: values.thingId || null, ...pickStatus(values) },
    mode,
  );
  return { isActive, isScheduled, startTime, endTime };
}

const pickStatus = (v: ClosureFormValues) => ({
  isActive: v.isActive,
  isScheduled: v.isScheduled,
  startTime: v.startTime,
  endTime: v.endTime,
});

type FieldErrors = Partial<Record<string, string>>;

/** The form's field errors by part 2 §5 (the domain's schema): a path problem shows under the path. */
export function closureFormErrors(values: ClosureFormValues, now: number, isWzdxOrg: boolean): FieldErrors {
  const closureType = values.thingId ? 'automated' : 'manual';
  const result = closureFormSchema({ now, isWzdxOrg }).safeParse({
    isDisplayed: values.isDisplayed,
    closureType,
    thingId: values.thingId || null,
    description: values.description,
    alertMessage: values.alertMessage,
    direction: values.direction,
    impactedLanes: values.impactedLanes,
    pathStart: values.userRoute[0] ?? null,
    pathEnd: values.userRoute.length >= 2 ? values.userRoute[values.userRoute.length - 1] : null,
    userRoute: values.userRoute,
    routePath: values.routePath,
    isActive: values.isActive,
    isScheduled: values.isScheduled,
    startTime: values.startTime,
    endTime: values.endTime,
    isPublishOn: values.isPublishOn,
    wzdxId: values.wzdxId,
    locationMethod: values.locationMethod,
    vehicleImpact: values.vehicleImpact,
    groupId: values.groupId,
  });
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const raw = String(issue.path[0] ?? '');
    const field = ['routePath', 'userRoute'].includes(raw) ? 'path' : ['pathStart', 'pathEnd'].includes(raw) ? 'pathEnds' : raw;
    // The route message says it all; 'Required' for a missing end adds nothing to it.
    if (field === 'pathEnds' && errors.path) continue;
    errors[field] ??= issue.message;
  }
  if (errors.path) delete errors.pathEnds;
  return errors;
}

/** The write body of the form (part 2 §3 "Write payload"; §4 times on save). */
export function closureFormPayload(values: ClosureFormValues, base: { id: string; orgId: string; inService: boolean }, now: number) {
  const closureType = values.thingId ? 'automated' : 'manual';
  const times = closureTimesOnSave(values, now);
  // A scheduled closure sends its start and lets the server make it active when the start is past.
  const isActive = values.isScheduled ? false : times.isActive;
  return toClosurePayload({
    id: base.id,
    orgId: base.orgId,
    inService: base.inService,
    thingId: values.thingId || null,
    closureType,
    isActive,
    startTime: times.startTime,
    endTime: times.endTime,
    description: values.description,
    alertMessage: values.alertMessage,
    direction: values.direction || null,
    streetStart: values.streetStart,
    streetEnd: values.streetEnd,
    userRoute: values.userRoute,
    routePath: values.routePath,
    impactedLanes: values.impactedLanes,
    isPublishOn: values.isPublishOn,
    wzdxId: values.wzdxId || null,
    locationMethod: values.locationMethod || null,
    vehicleImpact: values.vehicleImpact || null,
    groupId: values.groupId || null,
  });
}

// ── small fields ─────────────────────────────────────────────────────────────

function FieldError({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {text}
    </p>
  );
}

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

type RouteState =
  | { kind: 'none' }
  | { kind: 'drawing' }
  | { kind: 'routing' }
  | { kind: 'routed'; distanceM: number }
  | { kind: 'straight'; message: string };

export interface ClosureFormProps {
  /** The closure edited; null: a new one. */
  closure: Closure | null;
  organizationId: string;
  isWzdxOrg: boolean;
  /** Group ids already used by the organization's closures (offered, free text allowed). */
  groupIds: readonly string[];
  onSaved(saved: ClosureWire): void;
  onCancel(): void;
  /** The clock (tests pin it). */
  now?: () => number;
}

export function ClosureForm({ closure, organizationId, isWzdxOrg, groupIds, onSaved, onCancel, now = Date.now }: ClosureFormProps) {
  const { map, profile, organizationId: shownOrganizationId } = useOutletContext<ShellContext>();
  const calls = useClosureCalls();
  const [values, setValues] = useState(() => closureFormValues(closure));
  // What the form opened with: an edit that changed nothing cannot be saved, and changes not saved
  // are not left without asking (part 2 §5 General; LeaveGuard).
  const [opened] = useState(() => closureFormValues(closure));
  const dirty = useMemo(() => !sameFormValues(opened, values), [opened, values]);
  // The copy the form was opened on: a save made from it is refused once someone saved the closure
  // since (412), even though the list brings their copy meanwhile (lost updates, docs/security.md).
  const [openedVersion] = useState(() => closure?.version ?? null);
  const [submitted, setSubmitted] = useState(false);
  // part 2 §5 texts show from the first Save on, then follow each change.
  const errors = useMemo<FieldErrors>(
    () => (submitted ? closureFormErrors(values, now(), isWzdxOrg) : {}),
    [submitted, values, now, isWzdxOrg],
  );
  const save = useSubmit<ClosureWire>({ context: 'closureSave', onSuccess: onSaved });
  const [route, setRoute] = useState<RouteState>(
    closure && closure.routePath.length >= 2 ? { kind: 'routed', distanceM: 0 } : { kind: 'none' },
  );
  // Whichever service answers (Google's directions or the offline router), the form gets a routed path.
  const routePath = useMemo(() => pathRouter(map, calls.route), [map, calls]);
  const stopDrawing = useRef<(() => void) | null>(null);
  const routeAsked = useRef(0);
  const [pickerNow] = useState(now);
  const [instructions, setInstructions] = useState(false);
  const picker = closurePickerRange(pickerNow);
  // One time zone for every time shown or entered (part 1: the user's, as the detail and the
  // published feed read it back), never the browser's own: an end of 5:00 PM is 5:00 PM there.
  const zone = profile.timezone;

  // Every asset of the shown organization by name, whatever the asset list's filters and search.
  const fleet = useFleetList(shownOrganizationId, profile.organizationId);
  const assetOptions = useMemo(() => {
    const list = (fleet.entries ?? []).map((a) => ({ id: a.id, name: a.name }));
    if (values.thingId && !list.some((a) => a.id === values.thingId)) {
      list.unshift({ id: values.thingId, name: closure?.thingDisplayName || values.thingId });
    }
    return list;
  }, [fleet.entries, values.thingId, closure]);

  const set = (patch: Partial<ClosureFormValues>) => setValues((v) => ({ ...v, ...patch }));

  useEffect(() => () => stopDrawing.current?.(), []);

  // The form's own path on the map (the list's copy of a closure being edited is left off).
  const draft = useMemo(
    () =>
      values.isDisplayed && values.routePath.length >= 2
        ? closuresLayers({
            closures: [{ id: closure?.id ?? 'new', routePath: values.routePath, status: 'active' }],
            targetId: null,
            idPrefix: 'closure-form',
          })
        : null,
    [values.isDisplayed, values.routePath, closure?.id],
  );
  useMapOverlay(map, 'closures-form', draft);

  async function routeAlong(points: LatLng[]) {
    const own = ++routeAsked.current;
    setRoute({ kind: 'routing' });
    try {
      const answer = await routePath(points);
      if (own !== routeAsked.current) return;
      set({ userRoute: points, routePath: answer.path, streetStart: answer.streetStart, streetEnd: answer.streetEnd });
      setRoute({ kind: 'routed', distanceM: answer.distanceM });
    } catch (error) {
      if (own !== routeAsked.current) return;
      // part 2 §8 Route drawing: the service's message, or 'Something went wrong'; the straight path stays.
      set({ userRoute: points, routePath: points });
      setRoute({ kind: 'straight', message: userErrorOf(error, 'routeDrawing').text });
    }
  }

  function draw() {
    stopDrawing.current?.();
    setRoute({ kind: 'drawing' });
    const initial = values.userRoute.length >= 2 ? { kind: 'line' as const, path: values.userRoute } : null;
    stopDrawing.current = startDrawing(map, {
      kind: 'line',
      initial,
      onDone: (shape) => {
        stopDrawing.current = null;
        if (shape.kind === 'line' && shape.path.length >= 2) void routeAlong(shape.path);
        else setRoute({ kind: 'none' });
      },
      onCancel: () => {
        stopDrawing.current = null;
        setRoute(values.routePath.length >= 2 ? { kind: 'routed', distanceM: 0 } : { kind: 'none' });
      },
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const at = now();
    if (Object.keys(closureFormErrors(values, at, isWzdxOrg)).length > 0) {
      save.reset();
      return;
    }
    await save.submit(() => {
      const payload = closureFormPayload(
        values,
        { id: closure?.id ?? '', orgId: closure?.orgId || organizationId, inService: closure?.inService ?? true },
        at,
      );
      return closure ? calls.update(closure.id, payload, openedVersion) : calls.create(payload);
    });
  }

  const closureType = values.thingId ? 'automated' : 'manual';
  const statusHidden = hidesStatusSection({ closureType, thingId: values.thingId || null });
  const disabled = closureSwitchesDisabled(values);
  const described = (id: string, error: string | undefined) => (error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});

  return (
    <form
      className="form closure-form"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-label={closure ? CLOSURE_TEXT.editTitle : CLOSURE_TEXT.newTitle}
    >
      <Toggle label={CLOSURE_TEXT.display} checked={values.isDisplayed} onChange={(isDisplayed) => set({ isDisplayed })} />

      <fieldset className="form closure-path">
        <legend className="field-legend">{CLOSURE_TEXT.path}</legend>
        <button
          type="button"
          className="closure-instructions-toggle"
          aria-expanded={instructions}
          aria-controls="closure-instructions"
          onClick={() => setInstructions((shown) => !shown)}
        >
          {CLOSURE_TEXT.instructions}
        </button>
        {instructions && (
          <p className="field-note" id="closure-instructions">
            {CLOSURE_TEXT.drawing}
          </p>
        )}
        <button
          type="button"
          className="button button-secondary"
          onClick={draw}
          disabled={route.kind === 'drawing' || route.kind === 'routing'}
        >
          {values.userRoute.length >= 2 ? CLOSURE_TEXT.redrawPath : CLOSURE_TEXT.drawPath}
        </button>
        {route.kind === 'drawing' && (
          <>
            <p className="field-note" role="status">
              {CLOSURE_TEXT.drawing}
            </p>
            {/* Enter's twin for touch: a path of two points or more ends and is routed. */}
            <button type="button" className="button button-primary" onClick={() => finishDrawing(map)}>
              {CLOSURE_TEXT.finishPath}
            </button>
          </>
        )}
        {route.kind === 'routing' && (
          <p className="field-note" role="status">
            {CLOSURE_TEXT.routing}
          </p>
        )}
        {route.kind === 'routed' && route.distanceM > 0 && (
          <p className="field-note" role="status" data-testid="closure-route-note">
            {CLOSURE_TEXT.routedAlong(route.distanceM)}
          </p>
        )}
        {route.kind === 'straight' && (
          <>
            <p className="field-error" role="alert" data-testid="closure-route-error">
              {route.message}
            </p>
            <p className="field-note">{CLOSURE_TEXT.straightPath}</p>
          </>
        )}
        {values.routePath.length >= 2 && (
          <dl className="closure-fields closure-path-ends">
            <dt>{CLOSURE_TEXT.streetStart}</dt>
            <dd data-testid="closure-street-start">{values.streetStart || CLOSURE_TEXT.none_}</dd>
            <dt>{CLOSURE_TEXT.streetEnd}</dt>
            <dd data-testid="closure-street-end">{values.streetEnd || CLOSURE_TEXT.none_}</dd>
          </dl>
        )}
        <FieldError id="closure-path-error" text={errors.path ?? errors.pathEnds} />
      </fieldset>

      <Field id="closure-asset" label={CLOSURE_TEXT.asset} error={errors.thingId}>
        <select
          id="closure-asset"
          className="field-select"
          value={values.thingId}
          onChange={(e) => set({ thingId: e.target.value })}
          {...described('closure-asset', errors.thingId)}
        >
          <option value="">{CLOSURE_TEXT.noAsset}</option>
          {assetOptions.map((asset) => (
            <option key={asset.id} value={asset.id}>
              {asset.name}
            </option>
          ))}
        </select>
      </Field>

      <Field id="closure-description" label={CLOSURE_TEXT.description} error={errors.description}>
        <div className="field-input">
          <input
            id="closure-description"
            value={values.description}
            onChange={(e) => set({ description: e.target.value })}
            autoComplete="off"
            {...described('closure-description', errors.description)}
          />
        </div>
        <p
          className={values.description.length > CLOSURE_DESCRIPTION_MAX ? 'field-count field-count-warn' : 'field-count'}
          aria-live="polite"
        >
          {CLOSURE_TEXT.counter(values.description.length, CLOSURE_DESCRIPTION_MAX)}
        </p>
      </Field>

      <Field id="closure-alert" label={CLOSURE_TEXT.alertMessageField} error={errors.alertMessage}>
        <div className="field-input">
          <input
            id="closure-alert"
            value={values.alertMessage}
            onChange={(e) => set({ alertMessage: e.target.value })}
            autoComplete="off"
            {...described('closure-alert', errors.alertMessage)}
          />
        </div>
        <p
          className={values.alertMessage.length > CLOSURE_ALERT_MESSAGE_MAX ? 'field-count field-count-warn' : 'field-count'}
          aria-live="polite"
        >
          {CLOSURE_TEXT.counter(values.alertMessage.length, CLOSURE_ALERT_MESSAGE_MAX)}
        </p>
      </Field>

      <Field id="closure-direction" label={isWzdxOrg ? `${CLOSURE_TEXT.direction} *` : CLOSURE_TEXT.direction} error={errors.direction}>
        <select
          id="closure-direction"
          className="field-select"
          value={values.direction}
          onChange={(e) => set({ direction: e.target.value as ClosureDirection | '' })}
          {...described('closure-direction', errors.direction)}
        >
          <option value="">{CLOSURE_TEXT.directionNone}</option>
          {CLOSURE_DIRECTIONS.map((d) => (
            <option key={d} value={d}>
              {CLOSURE_TEXT.directions[d]}
            </option>
          ))}
        </select>
      </Field>

      <fieldset className="closure-lanes">
        <legend className="field-legend">{CLOSURE_TEXT.impactedLanes}</legend>
        <div className="closure-lane-boxes">
          {LANES.map((lane) => (
            <label key={lane} className="closure-lane">
              <input
                type="checkbox"
                checked={values.impactedLanes.includes(lane)}
                onChange={(e) =>
                  set({
                    impactedLanes: e.target.checked
                      ? [...values.impactedLanes, lane].sort((a, b) => a - b)
                      : values.impactedLanes.filter((l) => l !== lane),
                  })
                }
              />
              {lane}
            </label>
          ))}
        </div>
        <FieldError id="closure-lanes-error" text={errors.impactedLanes} />
      </fieldset>

      {!statusHidden && (
        <fieldset className="form closure-status">
          <legend className="field-legend">{CLOSURE_TEXT.status}</legend>
          <Toggle
            label={CLOSURE_TEXT.activeSwitch}
            checked={values.isActive}
            disabled={disabled.active}
            onChange={(on) => set(switchMode(values, on ? 'active' : 'inactive'))}
          />
          <Toggle
            label={CLOSURE_TEXT.scheduledSwitch}
            checked={values.isScheduled}
            disabled={disabled.scheduled}
            onChange={(on) => set(switchMode(values, on ? 'scheduled' : 'inactive'))}
          />
          {!values.isActive && !values.isScheduled && <p className="field-note">{CLOSURE_TEXT.inactiveNote}</p>}
          {values.isScheduled && (
            <Field id="closure-start" label={`${CLOSURE_TEXT.startTime} *`} error={errors.startTime}>
              <div className="field-input">
                <input
                  id="closure-start"
                  type="datetime-local"
                  step={60}
                  max={toMinuteInput(picker.max, zone)}
                  value={toMinuteInput(values.startTime, zone)}
                  onChange={(e) => set({ startTime: readDateInput(e.target, zone) })}
                  {...described('closure-start', errors.startTime)}
                />
              </div>
            </Field>
          )}
          {(values.isActive || values.isScheduled) && (
            <Field id="closure-end" label={`${CLOSURE_TEXT.endTime} *`} error={errors.endTime}>
              <div className="field-input">
                <input
                  id="closure-end"
                  type="datetime-local"
                  step={60}
                  min={toMinuteInput(picker.min, zone)}
                  max={toMinuteInput(picker.max, zone)}
                  value={toMinuteInput(values.endTime, zone)}
                  onChange={(e) => set({ endTime: readDateInput(e.target, zone) })}
                  {...described('closure-end', errors.endTime)}
                />
              </div>
            </Field>
          )}
        </fieldset>
      )}

      <fieldset className="form closure-wzdx-fields">
        <legend className="field-legend">{CLOSURE_TEXT.wzdxBlock}</legend>
        <Toggle label={CLOSURE_TEXT.publish} checked={values.isPublishOn} onChange={(isPublishOn) => set({ isPublishOn })} />
        {values.isPublishOn && (
          <>
            <Field id="closure-wzdx-id" label={`${CLOSURE_TEXT.wzdxId} *`} error={errors.wzdxId}>
              <div className="field-input">
                <input
                  id="closure-wzdx-id"
                  value={values.wzdxId}
                  onChange={(e) => set({ wzdxId: e.target.value })}
                  autoComplete="off"
                  {...described('closure-wzdx-id', errors.wzdxId)}
                />
              </div>
              <p className={values.wzdxId.length > WZDX_ID_MAX ? 'field-count field-count-warn' : 'field-count'}>
                {CLOSURE_TEXT.counter(values.wzdxId.length, WZDX_ID_MAX)}
              </p>
            </Field>
            <Field id="closure-location-method" label={`${CLOSURE_TEXT.locationMethod} *`} error={errors.locationMethod}>
              <select
                id="closure-location-method"
                className="field-select"
                value={values.locationMethod}
                onChange={(e) => set({ locationMethod: e.target.value })}
                {...described('closure-location-method', errors.locationMethod)}
              >
                <option value="" />
                {WZDX_LOCATION_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {wzdxValueLabel(m)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="closure-vehicle-impact" label={`${CLOSURE_TEXT.vehicleImpact} *`} error={errors.vehicleImpact}>
              <select
                id="closure-vehicle-impact"
                className="field-select"
                value={values.vehicleImpact}
                onChange={(e) => set({ vehicleImpact: e.target.value })}
                {...described('closure-vehicle-impact', errors.vehicleImpact)}
              >
                <option value="" />
                {WZDX_VEHICLE_IMPACTS.map((m) => (
                  <option key={m} value={m}>
                    {wzdxValueLabel(m)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="closure-group-id" label={CLOSURE_TEXT.groupId} error={errors.groupId}>
              <div className="field-input">
                <input
                  id="closure-group-id"
                  list="closure-group-ids"
                  value={values.groupId}
                  placeholder={CLOSURE_TEXT.groupHint}
                  onChange={(e) => set({ groupId: e.target.value })}
                  autoComplete="off"
                />
              </div>
              <datalist id="closure-group-ids">
                {groupIds.map((g) => (
                  <option key={g} value={g} />
                ))}
              </datalist>
            </Field>
          </>
        )}
      </fieldset>

      <SubmitFailure failure={save.failure} />
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={save.pending}>
          {CLOSURE_TEXT.cancel}
        </button>
        <LeaveGuard when={dirty && !save.pending} />
        <button
          type="submit"
          className="button button-primary"
          disabled={save.pending || route.kind === 'routing' || (closure !== null && !dirty)}
        >
          {save.pending ? CLOSURE_TEXT.saving : CLOSURE_TEXT.save}
        </button>
      </div>
    </form>
  );
}
