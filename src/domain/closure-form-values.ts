/**
 * The closure form's values and their rules (part 2 §2 Closures "Form", §3 "Write payload", §4
 * "Closure form modes", §5 Closure): the values a new or an existing closure opens with, a status
 * switch turned on or off, the §5 texts by field, and the write body of a save. The form
 * (src/features/closures/closure-form.tsx) only shows them; the status rules themselves are
 * closure-form.ts's, the §5 checks validation/closure.ts's.
 */
import { applyClosureMode, closureFormStatusFrom, closureTimesOnSave, type ClosureFormMode } from './closure-form';
import { toClosurePayload, type Closure, type ClosureType } from './closure';
import type { ClosureDirection } from './constants';
import type { LatLng } from './geometry';
import { closureFormSchema } from './validation/closure';
import { fieldErrors } from './validation/field-errors';

export interface ClosureFormValues {
  isDisplayed: boolean;
  /** The associated asset ('' none: a manual closure). */
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

/** The form's §5 texts by field; a path problem is the route's ('routePath'). */
export type ClosureFormErrors = Partial<Record<keyof ClosureFormValues, string>>;

/** part 2 §4: a closure with an asset is automated, one without manual (feed closures are not edited). */
export function closureFormType(values: Pick<ClosureFormValues, 'thingId'>): Extract<ClosureType, 'manual' | 'automated'> {
  return values.thingId ? 'automated' : 'manual';
}

/**
 * The form's starting values: a new closure (manual, inactive, not published, shown on the map)
 * or an existing one (its status by closureFormStatusFrom; a route without the drawn points is
 * redrawn from the routed path).
 */
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

type StatusValues = Pick<ClosureFormValues, 'isActive' | 'isScheduled' | 'startTime' | 'endTime'>;

/** part 2 §4: the switches and times after a status switch is turned to `mode` (closure-form.ts's rule). */
export function closureModePatch(values: ClosureFormValues, mode: ClosureFormMode): StatusValues {
  const { isActive, isScheduled, startTime, endTime } = applyClosureMode(
    {
      closureType: closureFormType(values),
      thingId: values.thingId || null,
      isActive: values.isActive,
      isScheduled: values.isScheduled,
      startTime: values.startTime,
      endTime: values.endTime,
    },
    mode,
  );
  return { isActive, isScheduled, startTime, endTime };
}

/** part 2 §4: the lanes after lane `lane` is checked or unchecked (in order, each once). */
export function toggleImpactedLane(lanes: readonly number[], lane: number, checked: boolean): number[] {
  const others = lanes.filter((other) => other !== lane);
  return checked ? [...others, lane].sort((a, b) => a - b) : others;
}

/**
 * The form's field errors by part 2 §5 (the domain's schema), one text a field. A path problem
 * shows under the path ('routePath'): the route's message, else the 'Required' of a missing end
 * (the route message says it all, so the end's adds nothing to it).
 */
export function closureFormErrors(values: ClosureFormValues, now: number, isWzdxOrg: boolean): ClosureFormErrors {
  const raw = fieldErrors(
    closureFormSchema({ now, isWzdxOrg }).safeParse({
      isDisplayed: values.isDisplayed,
      closureType: closureFormType(values),
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
    }),
  );
  const errors: ClosureFormErrors = {};
  let route: string | undefined;
  let ends: string | undefined;
  // In issue order, the first text of each field; a nested issue ('impactedLanes.0') shows under its field.
  for (const [key, message] of Object.entries(raw)) {
    const field = key.split('.')[0]!;
    if (field === 'routePath' || field === 'userRoute') route ??= message;
    else if (field === 'pathStart' || field === 'pathEnd') ends ??= message;
    else errors[field as keyof ClosureFormValues] ??= message;
  }
  const pathText = route ?? ends;
  if (pathText) errors.routePath = pathText;
  return errors;
}

/** The write body of the form (part 2 §3 "Write payload"; §4 times on save). */
export function closureFormPayload(values: ClosureFormValues, base: { id: string; orgId: string; inService: boolean }, now: number) {
  const times = closureTimesOnSave(values, now);
  // A scheduled closure sends its start and lets the server make it active when the start is past.
  const isActive = values.isScheduled ? false : times.isActive;
  return toClosurePayload({
    id: base.id,
    orgId: base.orgId,
    inService: base.inService,
    thingId: values.thingId || null,
    closureType: closureFormType(values),
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
