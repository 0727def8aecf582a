export { startWebhook, type WebhookTestHooks } from './service';
export { configShape, type Config } from './config';
