// Tracing starts in runService before these modules load http, express and gRPC.
import { runService } from '@accord/common/dist/service-main';

runService('gateway', async () => ({ configShape: (await import('./config')).configShape, start: (await import('./service')).startGateway }));
