import type { OpenApiFragment } from './types';

export const webhooksOpenApi: OpenApiFragment = { paths: {} };
