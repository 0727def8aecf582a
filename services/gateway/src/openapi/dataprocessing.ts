import type { OpenApiFragment } from './types';

export const dataprocessingOpenApi: OpenApiFragment = { paths: {} };
