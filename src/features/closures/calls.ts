/**
 * The closures section's REST calls (part 2 §7), each mapped through its catalogue context (part 2
 * §8): create, update, the quick toggle, delete, the organization's WZDx flag,
 * the offline router (POST /closure/route) and the WZDx feed subscriptions (GET/POST/PUT/DELETE
 * /organization/wzdx_feeds, POST /organization/wzdx_feeds/{id}/refresh; beyond the spec).
 * Components call these; none builds a URL or maps an error itself. The list itself is the live worker's (fetched in full, then incrementally).
 */
import { useMemo } from 'react';
import { z } from 'zod';
import { deleteOrGone, type ApiClient } from '../../app/api-client';
import { queryKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import { closureWireSchema, quickTogglePayload, type ClosurePayload, type ClosureWire } from '../../domain/closure';
import { routePointSchema } from '../../domain/closure';
import type { LatLng } from '../../domain/geometry';
import type { RoutedPath } from '../../map/directions';
import {
  fromWzdxFeedWire,
  wzdxFeedWireSchema,
  type WzdxFeedForm,
  type WzdxFeedPayload,
  type WzdxFeedSubscription,
} from '../../domain/wzdx-subscription';

const organizationFlagsSchema = z.object({ id: z.string(), name: z.string(), is_wzdx_org: z.boolean().default(false) });
const deletedSchema = z.unknown();
const routeAnswerSchema = z.object({
  path: z.array(routePointSchema),
  street_start: z.string(),
  street_end: z.string(),
  distance_m: z.number(),
});
/** The offline router's answer: a routed path as every directions service gives it (src/map/directions.ts). */
export type RouteAnswer = RoutedPath;

const closurePath = (id: string): string => `/organization/closure/${encodeURIComponent(id)}`;
const feedPath = (id: string): string => `/organization/wzdx_feeds/${encodeURIComponent(id)}`;
const wzdxFeedsSchema = z.array(wzdxFeedWireSchema);

export interface ClosureCalls {
  create(payload: ClosurePayload): Promise<ClosureWire>;
  /** `version`: the copy the form was opened on (If-Match; 412 when someone saved it since). */
  update(id: string, payload: ClosurePayload, version?: number | null): Promise<ClosureWire>;
  /** part 2 §4 quick toggle: activate (end one month ahead) or deactivate (end null). */
  toggle(id: string, activate: boolean, now: number): Promise<void>;
  remove(id: string): Promise<void>;
  organization(id: string): Promise<{ id: string; name: string; isWzdxOrg: boolean }>;
  /** The offline router: the path along the roads through the drawn points (the form routes through `pathRouter`). */
  route(points: readonly LatLng[]): Promise<RouteAnswer>;
  /** The organization's WZDx feed subscriptions with their last fetch's outcome. */
  wzdxFeeds(organizationId: string): Promise<WzdxFeedSubscription[]>;
  addWzdxFeed(organizationId: string, form: WzdxFeedForm): Promise<WzdxFeedSubscription>;
  updateWzdxFeed(id: string, form: WzdxFeedForm): Promise<WzdxFeedSubscription>;
  removeWzdxFeed(id: string): Promise<void>;
  /** Fetches the feed now; a failed fetch is the answer's `lastError`, not a thrown error. */
  refreshWzdxFeed(id: string): Promise<WzdxFeedSubscription>;
}

export function createClosureCalls(api: ApiClient): ClosureCalls {
  return {
    create: (payload) =>
      api.request('/organization/closure', { method: 'POST', body: payload, schema: closureWireSchema, context: 'closureSave' }),
    update: (id, payload, version) =>
      api.request(closurePath(id), {
        method: 'PUT',
        body: payload,
        schema: closureWireSchema,
        context: 'closureSave',
        ifMatch: version,
      }),
    async toggle(id, activate, now) {
      await api.request(closurePath(id), {
        method: 'PUT',
        body: quickTogglePayload({ id }, activate, now),
        schema: deletedSchema,
        context: 'closureToggle',
      });
    },
    remove: (id) => deleteOrGone(api, closurePath(id), 'closureDelete'),
    async organization(id) {
      const org = await api.request(`/organization/${encodeURIComponent(id)}`, {
        schema: organizationFlagsSchema,
        context: 'organization',
      });
      return { id: org.id, name: org.name, isWzdxOrg: org.is_wzdx_org };
    },
    async route(points) {
      const answer = await api.request('/closure/route', {
        method: 'POST',
        body: { points: points.map(({ lat, lng }) => ({ lat, lng })) },
        schema: routeAnswerSchema,
        context: 'routeDrawing',
      });
      return { path: answer.path, streetStart: answer.street_start, streetEnd: answer.street_end, distanceM: answer.distance_m };
    },
    async wzdxFeeds(organizationId) {
      const wire = await api.request('/organization/wzdx_feeds', {
        query: { 'org_ids[]': [organizationId] },
        schema: wzdxFeedsSchema,
        context: 'wzdxFeeds',
      });
      return wire.map(fromWzdxFeedWire);
    },
    async addWzdxFeed(organizationId, form) {
      const body: WzdxFeedPayload = { ...form, organization_id: organizationId };
      return fromWzdxFeedWire(
        await api.request('/organization/wzdx_feeds', { method: 'POST', body, schema: wzdxFeedWireSchema, context: 'wzdxFeeds' }),
      );
    },
    async updateWzdxFeed(id, form) {
      return fromWzdxFeedWire(
        await api.request(feedPath(id), { method: 'PUT', body: form, schema: wzdxFeedWireSchema, context: 'wzdxFeeds' }),
      );
    },
    removeWzdxFeed: (id) => deleteOrGone(api, feedPath(id), 'wzdxFeeds'),
    async refreshWzdxFeed(id) {
      return fromWzdxFeedWire(
        await api.request(`${feedPath(id)}/refresh`, { method: 'POST', schema: wzdxFeedWireSchema, context: 'wzdxFeeds' }),
      );
    },
  };
}

/** The keys of the section's cached answers. */
export const CLOSURE_QUERIES = {
  organization: (organizationId: string | null) => queryKey('closures', organizationId, 'organization'),
  wzdxFeeds: (organizationId: string | null) => queryKey('closures', organizationId, 'wzdx-feeds'),
  all: ['closures'],
} as const;

export function useClosureCalls(): ClosureCalls {
  const { api } = useServices();
  return useMemo(() => createClosureCalls(api), [api]);
}
