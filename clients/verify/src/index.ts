/**
 * The verifier's library API: the log's hashing, tree heads and bundle verification, which live in
 * @accord/proofs (shared/proofs), the package the consent service uses too; this package adds the
 * command line (`accord-verify`, src/cli.ts).
 */
export * from '@accord/proofs';
