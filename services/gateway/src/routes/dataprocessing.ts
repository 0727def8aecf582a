import { Router } from 'express';
import type { GatewayContext } from '../context';
import { HttpProblem } from '../problem';

/** Placeholder until the dataprocessing API lands: a clear 501 problem, never a hang or a 500. */
export function dataprocessingRoutes(_ctx: GatewayContext): Router {
  const r = Router();
  r.use(() => {
    throw new HttpProblem(501, 'Not implemented', 'This operation is not implemented yet.');
  });
  return r;
}
