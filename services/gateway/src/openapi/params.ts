/** OpenAPI `parameters` (in: query) derived from an object schema, so both stay one source. */
export function queryParameters(schema: { properties: Record<string, Record<string, unknown>>; required?: readonly string[] }): unknown[] {
  return Object.entries(schema.properties).map(([name, s]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
}
