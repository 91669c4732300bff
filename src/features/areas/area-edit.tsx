/**
 * /dashboard/areas/new and /dashboard/areas/{areaId}/edit (part 2 §2 Areas, §5 Area, §8 Area save):
 * name, description, type (the types of GET /ez_types), the shape drawn on the map — a polygon (an
 * exclusion, the default), a circle, or a point of interest — with its size in sq mi shown live,
 * and the address with the country's labels and postal-code rule. Every check is the domain's
 * (`areaFormValuesSchema`); the server's refusals (0.5 sq mi, an invalid shape) show under the form
 * with the catalogue's text. A legacy area (no point, no shape) opens with a note and is drawn anew.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type Control, type Resolver, type UseFormSetValue } from 'react-hook-form';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router-dom';
import { setTarget, startDrawing, type MapState } from '../../app/map/map-state';
import { areasKey } from '../../app/map/use-areas';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { areaDraftLayers } from '../../map/layers/area-draft-layer';
import { useFocusOnOpen } from '../../app/section/focus-on';
import { focusArea } from '../../app/map/area-focus';
import { DetailHeader } from '../../app/section/detail-header';
import { itemHref } from '../../app/section/item-href';
import { ItemState, SubmitFailure } from '../../app/section/item-state';
import { useSubmit } from '../../app/section/use-submit';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { SaveButton } from '../../app/ui/save-button';
import { SelectField } from '../../app/ui/select-field';
import { TextAreaField } from '../../app/ui/text-area-field';
import { TextField } from '../../app/ui/text-field';
import { newArea, type Area } from '../../domain/area';
import {
  AREA_SHAPE_KINDS,
  areaFormValues,
  areaFormValuesSchema,
  areaPayloadFromForm,
  geometrySqMiles,
  sqMilesText,
  type AreaFormValues,
  type AreaShapeKind,
} from '../../domain/area-form';
import { AREA_DESCRIPTION_MAX, POLYGON_MAX_SQ_MILES } from '../../domain/constants';
import type { Geometry } from '../../domain/geometry';
import { AREAS_TEXT, PAGE_TEXT } from '../../domain/labels';
import { canAddArea, canEditArea } from '../../domain/permissions';
import { addressLabels } from '../../domain/postal-code';
import { useAreaCalls } from './calls';
import { useArea } from './use-area';
import { useAreaTypes } from './use-area-types';
import './areas.css';

interface ShapeFieldProps {
  map: MapState;
  control: Control<AreaFormValues>;
  setValue: UseFormSetValue<AreaFormValues>;
  /** The shape's check failed on a submit: its messages (part 2 §5), shown under the field. */
  errors: string[];
  /** Stops a drawing in progress (the form calls it before it saves). */
  stopRef: { current: (() => void) | null };
}

/** The shape kind choice, 'View Instructions', the drawing buttons and the live sq mi readout. */
function ShapeField({ map, control, setValue, errors, stopRef }: ShapeFieldProps) {
  const kind = useWatch({ control, name: 'shapeKind' });
  const shape = useWatch({ control, name: 'shape' });
  const [drawing, setDrawing] = useState(false);
  const [help, setHelp] = useState(false);
  const latestShape = useRef(shape);
  latestShape.current = shape;

  const setShape = useCallback(
    (next: Geometry | null) => setValue('shape', next, { shouldDirty: true, shouldValidate: false }),
    [setValue],
  );

  const draw = useCallback(
    (drawKind: AreaShapeKind, initial: Geometry | null) => {
      stopRef.current?.();
      const ended = () => {
        stopRef.current = null;
        setDrawing(false);
      };
      const stop = startDrawing(map, {
        kind: drawKind,
        initial: initial && initial.kind === drawKind ? initial : null,
        onChange: (next) => {
          if (next) setShape(next);
        },
        onDone: (next) => {
          setShape(next);
          ended();
        },
        onCancel: ended,
      });
      stopRef.current = () => {
        stop();
        ended();
      };
      setDrawing(true);
    },
    [map, setShape, stopRef],
  );

  // The form opens drawing: a new (or legacy) area's shape, or the existing one's vertices to move.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    draw(kind, latestShape.current);
  }, [draw, kind]);
  useEffect(() => () => stopRef.current?.(), [stopRef]);

  const chooseKind = (next: AreaShapeKind) => {
    if (next === kind) return;
    setValue('shapeKind', next, { shouldDirty: true });
    setShape(null);
    draw(next, null);
  };

  // The finished shape stays drawn on the map (the drawing layer shows it while drawing).
  const draft = drawing ? null : shape && shape.kind === kind ? shape : null;
  const overlay = useMemo(() => (draft ? { under: areaDraftLayers(draft, 'areas') } : null), [draft]);
  useMapOverlay(map, 'areas', overlay);

  const sqMiles = geometrySqMiles(shape && shape.kind === kind ? shape : null);
  const tooLarge = sqMiles >= POLYGON_MAX_SQ_MILES;
  const hasShape = shape !== null && shape.kind === kind;
  return (
    <fieldset className="area-shape field">
      <legend>{AREAS_TEXT.shape}</legend>
      <div className="area-shape-kinds" role="radiogroup" aria-label={AREAS_TEXT.shape}>
        {AREA_SHAPE_KINDS.map((choice) => (
          <label key={choice} className="area-shape-kind">
            <input type="radio" name="shapeKind" value={choice} checked={kind === choice} onChange={() => chooseKind(choice)} />
            {AREAS_TEXT.shapeKinds[choice]}
          </label>
        ))}
      </div>
      <button type="button" className="button button-link area-help-toggle" aria-expanded={help} onClick={() => setHelp((open) => !open)}>
        {help ? AREAS_TEXT.hideInstructions : AREAS_TEXT.viewInstructions}
      </button>
      {help && (
        <div className="area-help">
          <p>{AREAS_TEXT.instructions[kind]}</p>
          <p>{AREAS_TEXT.instructions.keys}</p>
        </div>
      )}
      <div className="area-shape-actions">
        {drawing ? (
          <>
            <span className="area-drawing" role="status">
              {AREAS_TEXT.drawing}
            </span>
            <button type="button" className="button button-secondary" onClick={() => stopRef.current?.()}>
              {AREAS_TEXT.finish}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button button-secondary" onClick={() => draw(kind, hasShape ? shape : null)}>
              {hasShape ? AREAS_TEXT.editShape : AREAS_TEXT.draw}
            </button>
            {hasShape && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => {
                  setShape(null);
                  draw(kind, null);
                }}
              >
                {AREAS_TEXT.redraw}
              </button>
            )}
          </>
        )}
      </div>
      <p className="area-size" data-testid="area-size" data-too-large={tooLarge || undefined}>
        {kind === 'point'
          ? hasShape
            ? AREAS_TEXT.pointNoSize
            : AREAS_TEXT.noShape
          : hasShape
            ? `${AREAS_TEXT.size}: ${sqMilesText(sqMiles)}`
            : AREAS_TEXT.noShape}
      </p>
      {errors.map((message) => (
        <p key={message} className="field-error" role="alert">
          {message}
        </p>
      ))}
    </fieldset>
  );
}

function shapeErrors(error: { message?: string; types?: Record<string, unknown> } | undefined): string[] {
  if (!error) return [];
  const all = error.types ? Object.values(error.types).flatMap((value) => (Array.isArray(value) ? value : [value])) : [];
  const messages = all.filter((value): value is string => typeof value === 'string');
  if (messages.length === 0 && error.message) messages.push(error.message);
  return [...new Set(messages)];
}

/** The domain's check over the values, kept as typed (`raw`): its address fields are optional, the form's always strings. */
const areaResolver = zodResolver(areaFormValuesSchema, undefined, { raw: true }) as unknown as Resolver<AreaFormValues>;

interface AreaFormProps {
  area: Area;
  isNew: boolean;
}

function AreaForm({ area, isNew }: AreaFormProps) {
  const { map, organizationId } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const calls = useAreaCalls();
  const types = useAreaTypes();
  const stopRef = useRef<(() => void) | null>(null);
  const cancelHref = isNew ? itemHref('areas') : itemHref('areas', area.id);
  // The copy the form was opened on: a save from it is refused once someone saved the area since (412).
  const [openedVersion] = useState(area.version);
  const { failure, submit: send } = useSubmit({
    context: 'areaSave',
    invalidates: [areasKey(organizationId)],
    onSuccess(saved: Area) {
      if (isNew) {
        // part 2 §4: "After an area is added or deleted, the targeted area is cleared."
        setTarget(map, null);
        navigate(itemHref('areas'));
      } else navigate(itemHref('areas', saved.id));
    },
  });
  const { control, handleSubmit, formState, setValue, getValues } = useForm<AreaFormValues>({
    resolver: areaResolver,
    defaultValues: areaFormValues(area),
    mode: 'onTouched',
    criteriaMode: 'all',
  });
  const countryCode = useWatch({ control, name: 'countryCode' });
  const labels = addressLabels(countryCode);
  const submit = handleSubmit(async () => {
    const values = getValues();
    const payload = areaPayloadFromForm(values, area.orgId || organizationId, isNew ? undefined : area.id);
    await send(() => (isNew ? calls.create(payload) : calls.update(area.id, payload, openedVersion)));
  });
  const typeOptions = (types.data ?? []).map((type) => ({ value: type.id, label: type.displayName }));
  const shapeMessages = formState.isSubmitted ? shapeErrors(formState.errors.shape) : [];
  return (
    <form
      className="form area-form"
      noValidate
      aria-labelledby="area-edit-title"
      onSubmit={(event) => {
        // Enter in a field submits the form; the drawing in progress keeps its last shape.
        stopRef.current?.();
        void submit(event);
      }}
    >
      {area.isLegacy && !isNew && (
        <p className="area-note" role="note">
          {AREAS_TEXT.legacyNote}
        </p>
      )}
      <TextField control={control} name="name" label={AREAS_TEXT.name} required autoComplete="off" />
      <TextAreaField control={control} name="description" label={AREAS_TEXT.description} maxLength={AREA_DESCRIPTION_MAX} rows={2} />
      <SelectField control={control} name="ezTypeId" label={AREAS_TEXT.type} options={typeOptions} required />
      <ShapeField map={map} control={control} setValue={setValue} errors={shapeMessages} stopRef={stopRef} />
      <div className="area-address">
        <TextField control={control} name="countryCode" label={AREAS_TEXT.country} autoComplete="country" />
        <TextField control={control} name="address1" label={AREAS_TEXT.address1} autoComplete="address-line1" />
        <TextField control={control} name="address2" label={AREAS_TEXT.address2} autoComplete="address-line2" />
        <TextField control={control} name="city" label={AREAS_TEXT.city} autoComplete="address-level2" />
        <TextField control={control} name="state" label={labels.state} autoComplete="address-level1" />
        <TextField control={control} name="postalCode" label={labels.postalCode} autoComplete="postal-code" />
      </div>
      <SubmitFailure failure={failure} />
      <div className="area-form-actions">
        <SaveButton dirty={formState.isDirty} submitting={formState.isSubmitting}>
          {AREAS_TEXT.save}
        </SaveButton>
        <Link className="button button-secondary" to={cancelHref}>
          {AREAS_TEXT.cancel}
        </Link>
      </div>
    </form>
  );
}

/** /dashboard/areas/new: a new exclusion of the subscribed organization (part 2 §2). */
export function AreaNew() {
  const { profile, organizationId, map } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const [area] = useState(() => newArea(organizationId));
  return (
    <section className="area-edit" aria-labelledby="area-edit-title">
      <DetailHeader
        title={AREAS_TEXT.newTitle}
        titleId="area-edit-title"
        onBack={() => {
          setTarget(map, null);
          navigate(itemHref('areas'));
        }}
      />
      {canAddArea(profile.permissions, organizationId, profile.organizationId) ? (
        <AreaForm area={area} isNew />
      ) : (
        <p className="area-note" role="status">
          {PAGE_TEXT.unauthorized}
        </p>
      )}
    </section>
  );
}

/** /dashboard/areas/{areaId}/edit. */
export function AreaEdit() {
  const { areaId = '' } = useParams();
  const { profile, organizationId, map } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const lookup = useArea(organizationId, areaId);
  // A deep link or a reload frames the area as its Edit button's page does (part 1 §2), not the region.
  useFocusOnOpen(map, { kind: 'area', id: areaId }, lookup.state === 'found' ? lookup.area : null, focusArea);
  const header = (subtitle?: string) => (
    <DetailHeader
      title={AREAS_TEXT.editTitle}
      titleId="area-edit-title"
      subtitle={subtitle}
      onBack={() => navigate(itemHref('areas', areaId))}
    />
  );
  if (lookup.state !== 'found') {
    return (
      <ItemState
        className="area-edit"
        state={lookup.state}
        failure={lookup.state === 'failed' ? lookup.failure : null}
        texts={{ notFound: AREAS_TEXT.notFound }}
        header={header()}
      />
    );
  }
  const { area } = lookup;
  const allowed = canEditArea(profile.permissions, { orgId: area.orgId, isAvType: area.isAvType }, profile.organizationId);
  return (
    <section className="area-edit" aria-labelledby="area-edit-title">
      {header(area.displayName)}
      {allowed ? (
        <AreaForm key={area.id} area={area} isNew={false} />
      ) : (
        <p className="area-note" role="status">
          {PAGE_TEXT.unauthorized}
        </p>
      )}
    </section>
  );
}
