import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { RequestHandler } from 'express';
import type { FieldError } from '@accord/common';
import { HttpProblem } from '../problem';
import { buildDocument } from './index';

/**
 * Request validation against the component schemas of the OpenAPI document itself, so the
 * document and the checks cannot drift apart. Bodies are validated as they are; query strings
 * with type coercion (a query value is always a string on the wire).
 */
const DOC_ID = 'urn:accord:openapi';
let ajvBody: Ajv2020 | undefined;
let ajvQuery: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(coerce: boolean): Ajv2020 {
  // verbose: errors carry their schema, for its `x-error-message`
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: coerce, useDefaults: false, verbose: true });
  addFormats(ajv);
  ajv.addSchema(buildDocument('http://localhost') as object, DOC_ID);
  return ajv;
}

export function validatorFor(schemaName: string, kind: 'body' | 'query'): ValidateFunction {
  const key = `${kind}:${schemaName}`;
  let fn = compiled.get(key);
  if (!fn) {
    const ajv = kind === 'body' ? (ajvBody ??= instance(false)) : (ajvQuery ??= instance(true));
    fn = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${schemaName}` });
    compiled.set(key, fn);
  }
  return fn;
}

/**
 * A validator for any schema inside the document, by JSON pointer (URI-escaped), e.g. a
 * response body's: the e2e tests check every answer with it.
 */
export function validatorAt(pointer: string): ValidateFunction {
  const key = `at:${pointer}`;
  let fn = compiled.get(key);
  if (!fn) {
    fn = (ajvBody ??= instance(false)).compile({ $ref: `${DOC_ID}#${pointer}` });
    compiled.set(key, fn);
  }
  return fn;
}

/** ajv errors → field errors with JSON pointers (query: parameter names), the first one per field. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined, kind: 'body' | 'query'): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let field = e.instancePath || '/';
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      field = `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      field = `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}`;
      message = 'is not a known field';
    } else if (e.keyword === 'propertyNames' || (e as { propertyName?: string }).propertyName !== undefined) {
      // a key of a map (`regimes`) outside its pattern: the key is the field at fault
      const name = (e as { propertyName?: string }).propertyName ?? (e.params as { propertyName: string }).propertyName;
      field = `${e.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const pattern = e.keyword === 'pattern' ? (e.params as { pattern: string }).pattern : undefined;
      message = pattern ? `is not a key this map allows (must match ${pattern})` : 'is not a key this map allows';
    } else if (
      (e.keyword === 'pattern' || e.keyword === 'enum') &&
      typeof (e.parentSchema as { 'x-error-message'?: unknown } | undefined)?.['x-error-message'] === 'string'
    ) {
      // a schema's own words for what its pattern or values mean (its length and other keywords keep ajv's)
      message = (e.parentSchema as { 'x-error-message': string })['x-error-message'];
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    }
    if (kind === 'query') field = field.replace(/^\//, '') || '(query)';
    // one message per field (an empty string breaks both minLength and pattern: name it once)
    if (!seen.has(field)) {
      seen.add(field);
      out.push({ field, message });
    }
  }
  return out;
}

/** Validates req.body against a component schema; 400 problem listing every field at fault. */
export function validateBody(schemaName: string): RequestHandler {
  return (req, _res, next) => {
    const validate = validatorFor(schemaName, 'body');
    if (req.body === undefined) throw HttpProblem.field('/', 'a JSON body is required (Content-Type: application/json)');
    if (!validate(req.body)) throw HttpProblem.validation(toFieldErrors(validate.errors, 'body'));
    next();
  };
}

/**
 * Validates (and coerces) the query string against a component schema. The coerced values are
 * put in `res.locals.query` (Express 5's req.query is read-only).
 */
export function validateQuery(schemaName: string): RequestHandler {
  return (req, res, next) => {
    const validate = validatorFor(schemaName, 'query');
    const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
    if (!validate(query)) throw HttpProblem.validation(toFieldErrors(validate.errors, 'query'));
    res.locals.query = query;
    next();
  };
}
