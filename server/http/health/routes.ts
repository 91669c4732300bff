import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServerMetrics } from '../../core/metrics';
import type { Db } from '../../db/connection';
import type { Bus } from '../../deps';
import { errorAnswer, unauthorized } from '../../core/errors';
import { bearerToken } from '../../auth/context';
import { sameHash } from '../../auth/secrets';
import { failureReason } from '../../db/rows';
import { appliedMigrations, databaseAnswers, releasedMigrations } from './repository';
import {
  DATABASE_CHECK_TIMEOUT_MS,
  healthAnswer,
  METRICS_TOKEN_MESSAGE,
  metricsText,
  notReadyAnswer,
  readyAnswer,
  type ReadinessChecks,
} from './schema';

/** Whether the process is stopping (set on SIGTERM, server/main.ts): /ready answers 503 'draining'. */
export interface Lifecycle {
  draining: boolean;
}

export interface HealthSources {
  lifecycle: Lifecycle;
  metrics: ServerMetrics;
  /** METRICS_TOKEN: /metrics asks for it as a Bearer token; unset, /metrics is open. */
  metricsToken: string | undefined;
  /** Absent on a server built without a database (only /version and the app). */
  db?: Db;
  bus?: Bus;
}

/** Rejects after `ms` (the check's own bound, whatever the driver's connect timeout). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * GET /health, /ready and /metrics (docs/operations.md). Never shed under load nor rate-limited: a
 * proxy that cannot reach /ready takes the process out of service.
 */
export function healthRoutes(app: FastifyInstance, sources: HealthSources): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const released = releasedMigrations();
  /** Once every migration is seen applied it stays so for the process's life. */
  let migrationsApplied = false;

  api.get('/health', { schema: { summary: 'Whether the process answers (liveness)', response: { 200: healthAnswer } } }, async () => ({
    status: 'ok' as const,
  }));

  api.get(
    '/ready',
    {
      schema: {
        summary: 'Whether the process can serve (readiness): database, migrations, bus, not stopping',
        response: { 200: readyAnswer, 503: notReadyAnswer },
      },
    },
    async (_request, reply) => {
      const checks: ReadinessChecks = { database: 'none', migrations: 'unknown', bus: 'none', draining: sources.lifecycle.draining };
      const reasons: string[] = [];
      if (checks.draining) reasons.push('draining');
      if (!sources.db) reasons.push('no database');
      else {
        try {
          await within(databaseAnswers(sources.db), DATABASE_CHECK_TIMEOUT_MS);
          checks.database = 'ok';
          if (!migrationsApplied) {
            const applied = await within(appliedMigrations(sources.db), DATABASE_CHECK_TIMEOUT_MS);
            migrationsApplied = applied >= released;
            if (!migrationsApplied) reasons.push(`migrations pending (${applied} of ${released} applied)`);
          }
          checks.migrations = migrationsApplied ? 'ok' : 'pending';
        } catch (error) {
          checks.database = 'unreachable';
          reasons.push(`database unreachable: ${failureReason(error)}`);
        }
      }
      if (sources.bus) {
        checks.bus = sources.bus.connected() ? 'ok' : 'disconnected';
        if (checks.bus === 'disconnected') reasons.push('bus disconnected');
      }
      if (reasons.length === 0) return reply.code(200).send({ ready: true as const, checks });
      return reply.code(503).send({ ready: false as const, reason: reasons.join('; '), checks });
    },
  );

  api.get(
    '/metrics',
    {
      schema: {
        summary: 'The metrics in Prometheus text format (Authorization: Bearer METRICS_TOKEN when set)',
        response: { 200: metricsText, 401: errorAnswer },
      },
    },
    async (request, reply) => {
      if (sources.metricsToken) {
        if (!sameHash(bearerToken(request) ?? '', sources.metricsToken)) throw unauthorized(METRICS_TOKEN_MESSAGE);
      }
      const text = await sources.metrics.text();
      return reply.header('content-type', sources.metrics.contentType).send(text);
    },
  );
}
