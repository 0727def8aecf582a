import { DP_ACTIONS, DP_LEGAL_BASES, DP_TEXT_TYPES } from '../../../gateway/src/openapi/dataprocessing';
import { ACTIONS, LEGAL_BASES, TEXT_TYPES } from './model';

// The gateway validates requests against the OpenAPI document before they reach this service;
// both must allow exactly the same values.
describe('the OpenAPI document and the service', () => {
  it('allow the same actions, legal bases and text types', () => {
    expect([...DP_ACTIONS]).toEqual([...ACTIONS]);
    expect([...DP_LEGAL_BASES]).toEqual([...LEGAL_BASES]);
    expect([...DP_TEXT_TYPES]).toEqual([...TEXT_TYPES]);
  });
});
