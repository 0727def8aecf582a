import { z } from 'zod';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/** A registry of named contract schemas: each lands in the OpenAPI document's components.schemas under its id. */
export type ContractRegistry = z.core.$ZodRegistry<{ id: string }>;

export const contractRegistry = (): ContractRegistry => z.registry<{ id: string }>();

/**
 * The OpenAPI 3.1 component schemas of a registry: zod's own JSON Schema (draft 2020-12) with
 * `$ref`s to `#/components/schemas/<id>`, minus the per-schema `$schema`/`$id`, and with
 * nullable values written as `type: [T, "null"]` (zod writes `anyOf: [T, {type: "null"}]`) so
 * that the gateway's validator reports "must be string,null" rather than "must match a schema in
 * anyOf", as it always has; record keys lose zod's `propertyNames: {type: "string"}`, which JSON
 * property names always satisfy, and records of anything lose `additionalProperties: {}`.
 */
export function componentSchemas(registry: ContractRegistry): Record<string, JsonSchema> {
  const out = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'input', uri: (id) => `#/components/schemas/${id}`, override });
  const schemas: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(out.schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema as JsonSchema;
    schemas[id] = collapseNullable(rest) as JsonSchema;
  }
  return schemas;
}

/** One contract schema as plain JSON Schema (for schemas used inline, e.g. query parameters). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', override }) as JsonSchema;
  return collapseNullable(rest) as JsonSchema;
}

const VALUES_ONLY = 'x-accord-values-only';

/**
 * An enum stated by its values alone, without `type: string`: the validator then answers a value
 * of another type with "must be one of: …", as the hand-written schemas it replaces always did
 * (with the type, it would say "must be string").
 */
export const valuesOnly = <T extends z.ZodType>(schema: T): T => schema.meta({ [VALUES_ONLY]: true });

/**
 * `format: date-time` (or `date`) alone: zod adds its own regex for z.iso.datetime() and
 * z.iso.date(), which only restates the format (RFC 3339) that the document's validator
 * (ajv-formats) checks anyway. And `integer` alone for an integer without bounds of its own.
 */
function override(ctx: { jsonSchema: JsonSchema }): void {
  const s = ctx.jsonSchema;
  if (s.format === 'date-time' || s.format === 'date') delete s.pattern;
  if (s[VALUES_ONLY]) {
    delete s[VALUES_ONLY];
    if (Array.isArray(s.enum)) delete s.type;
  }
  // An unbounded z.int() is a plain integer (zod writes the safe-integer range).
  if (s.type === 'integer' && s.minimum === Number.MIN_SAFE_INTEGER && s.maximum === Number.MAX_SAFE_INTEGER) {
    delete s.minimum;
    delete s.maximum;
  }
}

function collapseNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(collapseNullable);
  if (!node || typeof node !== 'object') return node;
  const o = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, collapseNullable(v)])) as JsonSchema;
  // JSON property names are strings: zod's `propertyNames: {type: "string"}` (record keys) says nothing.
  const names = o.propertyNames as JsonSchema | undefined;
  if (names && names.type === 'string') {
    const { type: _t, ...rest } = names;
    if (Object.keys(rest).length) o.propertyNames = rest;
    else delete o.propertyNames;
  }
  // Values that may be anything (a record of z.unknown()): zod's `additionalProperties: {}` says nothing.
  const additional = o.additionalProperties;
  if (additional && typeof additional === 'object' && !Object.keys(additional).length) delete o.additionalProperties;
  const anyOf = o.anyOf as JsonSchema[] | undefined;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return o;
  const nullIndex = anyOf.findIndex((s) => s.type === 'null' && Object.keys(s).length === 1);
  const other = anyOf[1 - nullIndex];
  if (nullIndex < 0 || !other || typeof other.type !== 'string') return o;
  const { anyOf: _a, ...outer } = o;
  return {
    ...other,
    type: [other.type, 'null'],
    ...(Array.isArray(other.enum) ? { enum: [...(other.enum as unknown[]), null] } : {}),
    ...outer,
  };
}

/**
 * More than `max` characters, counted as JSON Schema's `maxLength` counts them (code points, not
 * UTF-16 units): the services' own length checks use it, so a value the document accepts is never
 * refused behind it.
 */
export const longerThan = (v: string, max: number): boolean => v.length > max && [...v].length > max;
