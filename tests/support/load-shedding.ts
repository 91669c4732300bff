/**
 * Load shedding off: a test run saturates the event loop (the embedded database runs on it), and a
 * suite must see its calls answered, not shed. tests/security/ops-overload.test.ts turns it on.
 */
export const NO_LOAD_SHEDDING = { PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0', PRESSURE_MAX_EVENT_LOOP_UTILIZATION: '0' } as const;
