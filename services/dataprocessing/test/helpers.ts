import { type ServiceError, status } from '@grpc/grpc-js';
import { createClient, createLogger, fieldErrorsOf, implement, loadConfig, startGrpcServer, type AsyncService, type PromiseClient } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { consentv1, dataprocessingv1 } from '@accord/proto';
import { configShape, startDataProcessing } from '../src';

export type DpClient = PromiseClient<typeof dataprocessingv1.DataProcessingServiceService>;

export interface RunningDp {
  client: DpClient;
  baseUrl: string;
  stop(): Promise<void>;
}

export const BASE_URL = 'https://accord.test';

export async function startTestDp(name: string, env: Record<string, string> = {}): Promise<RunningDp> {
  const { mongoUrl } = testEnv(name);
  const config = loadConfig(configShape, { MONGO_URL: mongoUrl, GRPC_PORT: '0', LOG_LEVEL: 'silent', ACCORD_BASE_URL: BASE_URL, ...env });
  const svc = await startDataProcessing(config, createLogger('dataprocessing-test', 'silent'));
  const client = createClient(dataprocessingv1.DataProcessingServiceService, `127.0.0.1:${svc.port}`, { retries: 0 });
  return {
    client,
    baseUrl: BASE_URL,
    async stop() {
      client.close();
      await svc.stop();
    },
  };
}

/** A stand-in consent service implementing only GetCurrentStates. */
export async function startFakeConsent(
  getCurrentStates: (req: consentv1.GetCurrentStatesRequest) => Promise<consentv1.GetCurrentStatesResponse>,
): Promise<{ address: string; calls: consentv1.GetCurrentStatesRequest[]; stop(): Promise<void> }> {
  const calls: consentv1.GetCurrentStatesRequest[] = [];
  const logger = createLogger('fake-consent', 'silent');
  const impl = {
    async getCurrentStates(req: consentv1.GetCurrentStatesRequest) {
      calls.push(req);
      return getCurrentStates(req);
    },
  } as unknown as AsyncService<consentv1.ConsentServiceServer>;
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      {
        definition: consentv1.ConsentServiceService,
        implementation: implement<consentv1.ConsentServiceServer>(impl, logger),
        name: 'accord.consent.v1.ConsentService',
      },
    ],
    logger,
  });
  return { address: `127.0.0.1:${server.port}`, calls, stop: () => server.shutdown(1000) };
}

export async function expectGrpcError(p: Promise<unknown>, code: status): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    expect((err as ServiceError).code).toBe(code);
    return err as ServiceError;
  }
  throw new Error(`expected gRPC error ${status[code]}`);
}

export const fieldsOf = (err: ServiceError) => fieldErrorsOf(err).map((f) => f.field);
