/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

/**
 * One REST base's share of the OpenAPI document. `schemas` land in components.schemas and are
 * also what requests are validated against (one source of truth).
 */
export interface OpenApiFragment {
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, unknown>>;
  schemas?: Record<string, JsonSchema>;
}

/** `$ref` to a component schema. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
