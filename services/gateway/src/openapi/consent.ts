import type { OpenApiFragment } from './types';

export const consentOpenApi: OpenApiFragment = { paths: {} };
