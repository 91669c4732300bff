import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { staleEditText, type EditedResource } from '../../src/domain/errors';
import { HttpError } from '../core/errors';

/**
 * Lost updates (docs/security.md): organizations, users, assets, areas and closures carry an edit
 * counter (`version`, schema.ts). Their wire objects say it as `version` and their detail and save
 * answers as the ETag `"<version>"`. A save that sends `If-Match` with a version that is no longer
 * the record's is refused with 412 and the resource's sentence, and changes nothing; a save
 * without `If-Match` writes as before (last write wins, as the live toggles always do).
 */

/** 412 'This closure was changed by someone else. Reload to see their changes.' */
export const preconditionFailed = (resource: EditedResource) => new HttpError(412, 'precondition_failed', staleEditText(resource));

export const etagOf = (version: number): string => `"${version}"`;

/**
 * The versions `If-Match` names: null when absent or `*` (any version); weak tags count as their
 * version. A header naming no version of ours (`"abc"`) matches nothing: an empty list.
 */
export function ifMatchVersions(request: FastifyRequest): number[] | null {
  const header = request.headers['if-match'];
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return null;
  const versions: number[] = [];
  for (const tag of value.split(',')) {
    const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(tag);
    if (match) versions.push(Number(match[1]));
  }
  return versions;
}

/**
 * The version a save is made from: checked against the record's `current` version now (412 when
 * `If-Match` names another), and returned so that the UPDATE can repeat the check in its WHERE
 * (`sameVersion` of server/db/rows.ts): a save that raced another one between the read and the write changes nothing.
 */
export function expectVersion(request: FastifyRequest, resource: EditedResource, current: number): number | null {
  const versions = ifMatchVersions(request);
  if (versions === null) return null;
  if (!versions.includes(current)) throw preconditionFailed(resource);
  return current;
}

/**
 * `If-Match` as ifMatchVersions reads it, for the documented-only headers of a save that calls
 * expectVersion (`headers: documentedObject({ ...ifMatchHeader })`; Node gives header names lower case).
 */
export const ifMatchHeader = {
  'if-match': z.string().optional().meta({
    description:
      'The version the edit was made from, as the ETag of the record\'s answer: `"<version>"` (W/ and a list accepted; `*`: any). A version that is no longer the record\'s: 412, nothing changes. Absent: the save writes as it is (last write wins).',
  }),
};

/** Sets the ETag of an answer that carries one record. */
export function replyVersion<T extends { version?: number | null }>(reply: FastifyReply, wire: T): T {
  if (typeof wire.version === 'number') void reply.header('etag', etagOf(wire.version));
  return wire;
}
