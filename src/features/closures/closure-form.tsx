/**
 * The closure form of /new and /{closureId}/edit (part 2 §2 "The form has these parts", §4
 * "Closure form modes", §5 Closure, §8 Closure save, Route drawing):
 * - the display-closure switch (the drawn path shown on the map while the form is open);
 * - the path, drawn on the map (`startDrawing`, kind 'line': start, turns, end) and routed along
 *   the roads by the map's directions service (`pathRouter`, part 2 §7: Google's Directions with a
 *   Google key, else — or when Google cannot load — the server's offline router); when no route is
 *   found the straight drawn path is kept and the service's message shown (part 2 §8 "The service
 *   message, or 'Something went wrong'"); the start and end street names come from the route;
 * - asset association through the virtualized asset picker (part 2 §9; an automated closure hides
 *   the status section);
 * - description (100) and alert message (40) with counters as the user types; direction (required
 *   for WZDx organizations); impacted lanes 1–9;
 * - status: active (an end time), scheduled (start and end; active on save when the start is
 *   past), inactive (no times); the switches disable each other; pickers from now to 3 months
 *   ahead, by the minute;
 * - WZDx fields when publishing: unique id (≤ 100, required), location method and vehicle impact
 *   (required), group id (free text or an existing one).
 * Each §5 text shows under its field; a failed save's catalogue text under the form. The form is
 * on the form kit (part 2 §5 General: 'Required *', Save only once an edit changed and not while
 * submitting, the leave guard); its values and rules are the domain's (closure-form-values.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { useOutletContext } from 'react-router-dom';
import { userErrorOf } from '../../app/api-client';
import { useFleetList } from '../../app/fleet-list';
import { finishDrawing, pathRouter, startDrawing } from '../../app/map/map-state';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { SubmitFailure } from '../../app/section/item-state';
import { useSubmit } from '../../app/section/use-submit';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { AssetPicker } from '../../app/ui/asset-picker';
import { SaveButton } from '../../app/ui/save-button';
import { SelectField } from '../../app/ui/select-field';
import { TextField } from '../../app/ui/text-field';
import { Toggle } from '../../app/ui/toggle';
import type { Closure, ClosureWire } from '../../domain/closure';
import { closurePickerRange, closureSwitchesDisabled, hidesStatusSection } from '../../domain/closure-form';
import {
  closureFormErrors,
  closureFormPayload,
  closureFormType,
  closureFormValues,
  closureModePatch,
  toggleImpactedLane,
  type ClosureFormValues,
} from '../../domain/closure-form-values';
import {
  CLOSURE_ALERT_MESSAGE_MAX,
  CLOSURE_DESCRIPTION_MAX,
  CLOSURE_DIRECTIONS,
  IMPACTED_LANES_MAX,
  IMPACTED_LANES_MIN,
  WZDX_ID_MAX,
} from '../../domain/constants';
import type { LatLng } from '../../domain/geometry';
import { readDateInput, toMinuteInput } from '../../domain/time';
import { CLOSURE_TEXT, FORM_LABEL, TRIPS_TEXT } from '../../domain/labels';
import { WZDX_LOCATION_METHODS, WZDX_VEHICLE_IMPACTS, wzdxValueLabel } from '../../domain/wzdx';
import { closuresLayers } from '../../map/layers/closures-layer';
import { useClosureCalls } from './calls';

const LANES = Array.from({ length: IMPACTED_LANES_MAX - IMPACTED_LANES_MIN + 1 }, (_, i) => i + IMPACTED_LANES_MIN);
const DIRECTION_OPTIONS = CLOSURE_DIRECTIONS.map((d) => ({ value: d, label: CLOSURE_TEXT.directions[d] }));
const LOCATION_METHOD_OPTIONS = WZDX_LOCATION_METHODS.map((m) => ({ value: m, label: wzdxValueLabel(m) }));
const VEHICLE_IMPACT_OPTIONS = WZDX_VEHICLE_IMPACTS.map((m) => ({ value: m, label: wzdxValueLabel(m) }));

/** The domain's §5 texts as the form kit's errors. */
function kitErrors(errors: Partial<Record<string, string>>): FieldErrors<ClosureFormValues> {
  const out: Record<string, { type: string; message: string }> = {};
  for (const [field, message] of Object.entries(errors)) if (message) out[field] = { type: 'validate', message };
  return out as FieldErrors<ClosureFormValues>;
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
  // The domain's §5 check over every field, with the clock and the organization of the moment (the
  // organization's WZDx flag may arrive after the form opened).
  const rules = useRef({ now, isWzdxOrg });
  rules.current = { now, isWzdxOrg };
  const resolver = useCallback<Resolver<ClosureFormValues>>((values) => {
    const errors = closureFormErrors(values, rules.current.now(), rules.current.isWzdxOrg);
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors: kitErrors(errors) };
  }, []);
  // The form kit (part 2 §5 General): what the form opened with is its default, so an edit that
  // changed nothing cannot be saved, and changes not saved are not left without asking (SaveButton).
  const { control, handleSubmit, formState, setValue, watch, trigger } = useForm<ClosureFormValues>({
    resolver,
    defaultValues: closureFormValues(closure),
    mode: 'onTouched',
  });
  const values = watch();
  // part 2 §5 texts show from the first Save on, then follow each change of any field (a switch
  // turned on asks for its times at once).
  const submitted = useRef(false);
  submitted.current = formState.isSubmitted;
  useEffect(() => {
    const watching = watch(() => {
      if (submitted.current) void trigger();
    });
    return () => watching.unsubscribe();
  }, [watch, trigger]);
  const errorOf = (field: keyof ClosureFormValues) => (formState.isSubmitted ? formState.errors[field]?.message : undefined);
  // The copy the form was opened on: a save made from it is refused once someone saved the closure
  // since (412), even though the list brings their copy meanwhile (lost updates, docs/security.md).
  const [openedVersion] = useState(() => closure?.version ?? null);
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

  // Every asset of the shown organization by name, whatever the asset list's filters and search,
  // in the virtualized picker (part 2 §9 "Lists over 20 options are virtualized"). An asset the
  // list does not hold (another organization's) is still offered under the closure's name for it.
  const fleet = useFleetList(shownOrganizationId, profile.organizationId);
  const assetEntries = useMemo(() => {
    if (fleet.entries === null) return null;
    const linked = closure?.closureType === 'automated' ? closure.thingId : null;
    if (!linked || fleet.entries.some((a) => a.id === linked)) return fleet.entries;
    return [{ id: linked, name: closure?.thingDisplayName || linked, type: null }, ...fleet.entries];
  }, [fleet.entries, closure]);

  const set = (patch: Partial<ClosureFormValues>) => {
    for (const [field, value] of Object.entries(patch)) {
      setValue(field as keyof ClosureFormValues, value as never, { shouldDirty: true });
    }
  };

  useEffect(() => () => stopDrawing.current?.(), []);

  // The form's own path on the map (the list's copy of a closure being edited is left off), with
  // layer ids of its own beside the list's: one id twice in deck.gl's list is 'Multiple new layers
  // with same id', and a layer instance matched twice fails deck.gl's 'assertion failed'.
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

  const submit = handleSubmit(async (checked) => {
    const at = now();
    await save.submit(() => {
      const payload = closureFormPayload(
        checked,
        { id: closure?.id ?? '', orgId: closure?.orgId || organizationId, inService: closure?.inService ?? true },
        at,
      );
      return closure ? calls.update(closure.id, payload, openedVersion) : calls.create(payload);
    });
  }, save.reset);

  const statusHidden = hidesStatusSection({ closureType: closureFormType(values), thingId: values.thingId || null });
  const disabled = closureSwitchesDisabled(values);
  const described = (id: string, error: string | undefined) => (error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});
  const pathError = errorOf('routePath');
  const startError = errorOf('startTime');
  const endError = errorOf('endTime');

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
        <FieldError id="closure-path-error" text={pathError} />
      </fieldset>

      <AssetPicker
        label={CLOSURE_TEXT.asset}
        entries={assetEntries}
        chosen={values.thingId ? [values.thingId] : []}
        onChange={(next) => set({ thingId: next[0] ?? '' })}
        single
        error={errorOf('thingId') ?? null}
        loadingText={TRIPS_TEXT.loadingAssets}
        emptyText={TRIPS_TEXT.noAssets}
      />
      {!values.thingId && <p className="field-note">{CLOSURE_TEXT.noAsset}</p>}

      <TextField
        control={control}
        name="description"
        id="closure-description"
        label={CLOSURE_TEXT.description}
        required
        counterMax={CLOSURE_DESCRIPTION_MAX}
        autoComplete="off"
      />
      <TextField
        control={control}
        name="alertMessage"
        id="closure-alert"
        label={CLOSURE_TEXT.alertMessageField}
        counterMax={CLOSURE_ALERT_MESSAGE_MAX}
        autoComplete="off"
      />
      {/* part 2 §5: the direction is required for WZDx organizations. */}
      <SelectField
        control={control}
        name="direction"
        id="closure-direction"
        label={CLOSURE_TEXT.direction}
        options={DIRECTION_OPTIONS}
        required={isWzdxOrg}
        placeholder={isWzdxOrg ? FORM_LABEL.required : CLOSURE_TEXT.directionNone}
      />

      <fieldset className="closure-lanes">
        <legend className="field-legend">{CLOSURE_TEXT.impactedLanes}</legend>
        <div className="closure-lane-boxes">
          {LANES.map((lane) => (
            <label key={lane} className="closure-lane">
              <input
                type="checkbox"
                checked={values.impactedLanes.includes(lane)}
                onChange={(e) => set({ impactedLanes: toggleImpactedLane(values.impactedLanes, lane, e.target.checked) })}
              />
              {lane}
            </label>
          ))}
        </div>
        <FieldError id="closure-lanes-error" text={errorOf('impactedLanes')} />
      </fieldset>

      {!statusHidden && (
        <fieldset className="form closure-status">
          <legend className="field-legend">{CLOSURE_TEXT.status}</legend>
          <Toggle
            label={CLOSURE_TEXT.activeSwitch}
            checked={values.isActive}
            disabled={disabled.active}
            onChange={(on) => set(closureModePatch(values, on ? 'active' : 'inactive'))}
          />
          <Toggle
            label={CLOSURE_TEXT.scheduledSwitch}
            checked={values.isScheduled}
            disabled={disabled.scheduled}
            onChange={(on) => set(closureModePatch(values, on ? 'scheduled' : 'inactive'))}
          />
          {!values.isActive && !values.isScheduled && <p className="field-note">{CLOSURE_TEXT.inactiveNote}</p>}
          {values.isScheduled && (
            <Field id="closure-start" label={`${CLOSURE_TEXT.startTime} *`} error={startError}>
              <div className="field-input">
                <input
                  id="closure-start"
                  type="datetime-local"
                  step={60}
                  max={toMinuteInput(picker.max, zone)}
                  value={toMinuteInput(values.startTime, zone)}
                  onChange={(e) => set({ startTime: readDateInput(e.target, zone) })}
                  aria-required
                  {...described('closure-start', startError)}
                />
              </div>
            </Field>
          )}
          {(values.isActive || values.isScheduled) && (
            <Field id="closure-end" label={`${CLOSURE_TEXT.endTime} *`} error={endError}>
              <div className="field-input">
                <input
                  id="closure-end"
                  type="datetime-local"
                  step={60}
                  min={toMinuteInput(picker.min, zone)}
                  max={toMinuteInput(picker.max, zone)}
                  value={toMinuteInput(values.endTime, zone)}
                  onChange={(e) => set({ endTime: readDateInput(e.target, zone) })}
                  aria-required
                  {...described('closure-end', endError)}
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
            <TextField
              control={control}
              name="wzdxId"
              id="closure-wzdx-id"
              label={CLOSURE_TEXT.wzdxId}
              required
              counterMax={WZDX_ID_MAX}
              autoComplete="off"
            />
            <SelectField
              control={control}
              name="locationMethod"
              id="closure-location-method"
              label={CLOSURE_TEXT.locationMethod}
              options={LOCATION_METHOD_OPTIONS}
              required
              placeholder={FORM_LABEL.required}
            />
            <SelectField
              control={control}
              name="vehicleImpact"
              id="closure-vehicle-impact"
              label={CLOSURE_TEXT.vehicleImpact}
              options={VEHICLE_IMPACT_OPTIONS}
              required
              placeholder={FORM_LABEL.required}
            />
            <TextField
              control={control}
              name="groupId"
              id="closure-group-id"
              label={CLOSURE_TEXT.groupId}
              list="closure-group-ids"
              placeholder={CLOSURE_TEXT.groupHint}
              autoComplete="off"
            />
            <datalist id="closure-group-ids">
              {groupIds.map((g) => (
                <option key={g} value={g} />
              ))}
            </datalist>
          </>
        )}
      </fieldset>

      <SubmitFailure failure={save.failure} />
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={save.pending}>
          {CLOSURE_TEXT.cancel}
        </button>
        {/* part 2 §5 General: an edit saves once changed; a new closure's Save shows what it still needs. */}
        <SaveButton
          dirty={formState.isDirty}
          submitting={save.pending || formState.isSubmitting}
          savesUnchanged={closure === null}
          held={route.kind === 'routing'}
        >
          {save.pending ? CLOSURE_TEXT.saving : CLOSURE_TEXT.save}
        </SaveButton>
      </div>
    </form>
  );
}
