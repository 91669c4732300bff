import { z } from 'zod';

/**
 * The operations calls (docs/operations.md): GET /health (the process answers), GET /ready (it can
 * serve: database, migrations, bus, not stopping) and GET /metrics (Prometheus text). None needs a
 * session: a proxy, a container's HEALTHCHECK and a scraper call them.
 */

export const healthAnswer = z.object({ status: z.literal('ok') });

export const readinessChecks = z.object({
  database: z
    .enum(['ok', 'unreachable', 'none'])
    .meta({ description: "Whether the database answers a query now ('none': a server built without one)." }),
  migrations: z.enum(['ok', 'pending', 'unknown']).meta({ description: 'Whether every migration this release brings is applied.' }),
  bus: z
    .enum(['ok', 'disconnected', 'none'])
    .meta({ description: 'Whether live messages reach the other processes (NATS connected; in-process: ok).' }),
  draining: z.boolean().meta({ description: 'The process is stopping (SIGTERM): it finishes what it holds and takes nothing new.' }),
});
export type ReadinessChecks = z.infer<typeof readinessChecks>;

export const readyAnswer = z.object({ ready: z.literal(true), checks: readinessChecks });
export const notReadyAnswer = z.object({
  ready: z.literal(false),
  reason: z.string().meta({
    description: "Why not, in words: 'draining', 'database unreachable: …', 'migrations pending (5 of 6 applied)', 'bus disconnected'.",
  }),
  checks: readinessChecks,
});

/** The Prometheus text (version 0.0.4), written as it is. */
export const metricsText = {
  description: 'The metrics in Prometheus text format',
  content: { 'text/plain': { schema: z.custom<string>().meta({ type: 'string' }) } },
};
export const METRICS_TOKEN_MESSAGE = 'A valid metrics token is required in the Authorization header (Bearer).';

/** A database that does not answer within this is unreachable for the check (a hung connect must not hang the probe). */
export const DATABASE_CHECK_TIMEOUT_MS = 2_000;
