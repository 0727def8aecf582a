export * from './merkle';
export { canonicalJson, eventLeaf, exportLineLeaf, LINK_TYPE, linkLeaf } from './jcs';
export { hashFromBase64, toBase64 } from './encoding';
export {
  parseTreeHead,
  SIGNING_ALGORITHMS,
  TREE_HEAD_TYP,
  treeHeadPayloadBytes,
  verifyTreeHead,
  type TreeHead,
  type TreeHeadPayload,
  type Verdict,
} from './tree-head';
export {
  parseConsistencyProof,
  parseInclusionProof,
  verifyBundle,
  type Bundle,
  type Check,
  type ConsistencyProof,
  type InclusionProof,
  type LogAnchor,
} from './verify';
