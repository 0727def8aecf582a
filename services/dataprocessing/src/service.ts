import { Types } from 'mongoose';
import { connectMongo, implement, serveGrpc, serviceAuth, syncIndexes, type Logger } from '@accord/common';
import { dataprocessingv1 } from '@accord/proto';
import type { Config } from './config';
import { Registry } from './app/registry';
import { GrpcConsentStates } from './grpc/consent-client';
import { dataprocessingAccess } from './grpc/access';
import { dataProcessingHandlers } from './grpc/handlers';
import { defineModels } from './store/mongo/models';
import { MongoRegistryStore } from './store/mongo/store';

export async function startDataProcessing(config: Config, logger: Logger): Promise<{ port: number; stop(): Promise<void> }> {
  const conn = await connectMongo(config.MONGO_URL, logger);
  const models = defineModels(conn);
  await syncIndexes(conn);

  const { auth, identity, tls, close: closeAuth } = serviceAuth('dataprocessing', config, logger, { platform: true, limits: { config } });
  const consent = new GrpcConsentStates(config.ACCORD_CONSENT_ADDR, config.ACCORD_CONSENT_TIMEOUT_MS, identity, tls);
  const registry = new Registry(new MongoRegistryStore(models), consent, {
    baseUrl: config.ACCORD_BASE_URL,
    defaultLocation: config.ACCORD_DEFAULT_LOCATION,
    newId: () => new Types.ObjectId().toHexString(),
  });

  return serveGrpc(config, {
    services: [
      {
        definition: dataprocessingv1.DataProcessingServiceService,
        implementation: implement<dataprocessingv1.DataProcessingServiceServer>(dataProcessingHandlers(registry), logger),
        access: dataprocessingAccess,
      },
    ],
    auth,
    database: conn,
    logger,
    release: () => {
      consent.close();
      closeAuth();
    },
  });
}
