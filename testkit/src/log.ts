import { createLogger, type Logger } from '@accord/common';

/**
 * The one log switch of the tests: `ACCORD_TEST_LOG=debug npx jest …` shows what the services
 * started by a test (component and e2e) log; unset, they are silent.
 */
export const TEST_LOG_VARIABLE = 'ACCORD_TEST_LOG';

/** The log level of everything a test starts: `ACCORD_TEST_LOG`, or silent. */
export const testLogLevel = (): string => process.env[TEST_LOG_VARIABLE] || 'silent';

/** A logger for a test's own connections and fakes, at the test log level. */
export const testLogger = (name: string): Logger => createLogger(name, testLogLevel());
