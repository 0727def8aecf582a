import { ConfigError } from './config';
import type { Logger } from './logger';

export type Stop = () => Promise<void>;

/**
 * Runs a service's start function and wires process signals: on SIGTERM/SIGINT the returned
 * stop function drains and closes everything, then the process exits. A bad configuration or
 * a failed start exits non-zero with one clear message.
 */
export function runMain(name: string, start: () => Promise<{ stop: Stop; logger: Logger }>): void {
  let stopping = false;
  start().then(
    ({ stop, logger }) => {
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        stop().then(
          () => process.exit(0),
          (err: unknown) => {
            logger.error({ err }, 'error during shutdown');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
      process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled promise rejection'));
    },
    (err: unknown) => {
      if (err instanceof ConfigError) console.error(`[${name}] ${err.message}`);
      else console.error(`[${name}] failed to start:`, err);
      process.exit(1);
    },
  );
}
