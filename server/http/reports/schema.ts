import { z } from 'zod';
import { pathIds } from '../route-validation';

/** The monthly report calls' requests and answers (part 2 §7 report calls, §8 'Organization not found', 'File not found'). */

// A malformed id names no organization: the same 404 as an unknown one (part 2 §8 'Organization not found').
export const reportsPath = pathIds(z.object({ orgId: z.uuid({ error: 'must be a uuid' }) }), 'Organization');
export const linkQuery = z.object({ filename: z.string({ error: 'Required' }).min(1, { error: 'Required' }).max(200) });
/** A signed link to a report's PDF (GET /files/{fileId}, no bearer needed). */
export const fileLinkAnswer = z.object({ file_url: z.string().meta({ description: 'A signed, expiring link to the file.' }) });
