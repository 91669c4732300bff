/**
 * The area form (part 2 §2, §5): name, description, type, map position or shape, and address.
 * A point of interest has a point and no shape; an exclusion (the default new area) needs a shape
 * of at least 3 points. The 0.5 sq mi polygon limit is the server's (errors.ts areaSave).
 */
import { z } from 'zod';
import { AREA_DESCRIPTION_MAX, AREA_NAME_MAX, EXCLUSION_MIN_POINTS } from '../constants';
import { openRing } from '../geometry';
import { checkPostalCode, optionalAddressShape } from './address';
import { optionalString, pointSchema, requiredId, requiredString, type Point } from './fields';
import { MESSAGES } from './messages';

/** The distinct corners of a shape: a closing point equal to the first is not counted twice. */
export function shapeCornerCount(points: readonly Point[]): number {
  return openRing(points).length;
}

export const areaFormSchema = z
  .object({
    name: requiredString({ max: AREA_NAME_MAX, message: MESSAGES.max100 }),
    description: optionalString({ max: AREA_DESCRIPTION_MAX, message: MESSAGES.max100 }),
    ezTypeId: requiredId(),
    /** From the chosen type: a point of interest (no shape) or an exclusion. */
    isPoi: z.boolean(),
    position: pointSchema.nullish(),
    /** The exclusion's shape (client Area.lineStringArray). */
    lineStringArray: z.array(pointSchema),
    ...optionalAddressShape(),
  })
  .superRefine((form, ctx) => {
    if (!form.position) ctx.addIssue({ code: 'custom', path: ['position'], message: MESSAGES.areaPosition });
    if (!form.isPoi && shapeCornerCount(form.lineStringArray) < EXCLUSION_MIN_POINTS) {
      ctx.addIssue({ code: 'custom', path: ['lineStringArray'], message: MESSAGES.exclusionPoints });
    }
    checkPostalCode(form, ctx);
  });
export type AreaForm = z.infer<typeof areaFormSchema>;
