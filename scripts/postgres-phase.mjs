// Whether `npm test` runs the Postgres and NATS phase (`npm run test:pg`): both servers given. One
// rule for scripts/test-pg.mjs, which runs or skips that phase, and scripts/test.mjs, which then
// leaves the engine-neutral security suites to it (ENGINE_NEUTRAL_SECURITY_SUITES in vite.config.ts).
export const postgresPhaseRuns = (env = process.env) => Boolean(env.TEST_DATABASE_URL && env.TEST_NATS_URL);
