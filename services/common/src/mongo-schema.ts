import { Schema, type SchemaDefinition } from 'mongoose';

/**
 * Mongoose field declarations grouped by how a field may be missing, so that a schema reads as a
 * list of names: `...requiredFields({ name: String, createdAt: Date })`, `...nullableFields({ revokedAt: Date })`.
 * Fields with a default of their own, an enum or a sub-schema are declared as Mongoose has them.
 */
type Fields = Record<string, unknown>;

const each = (fields: Fields, declare: (type: unknown) => object) => Object.fromEntries(Object.entries(fields).map(([k, type]) => [k, declare(type)]));

/** Fields every document has: `{ type, required: true }` each. */
export const requiredFields = (fields: Fields): Fields => each(fields, (type) => ({ type, required: true }));

/** Fields that are null until set: `{ type, default: null }` each. */
export const nullableFields = (fields: Fields): Fields => each(fields, (type) => ({ type, default: null }));

/** The schema of a collection's documents: a required `_id` of `idType`, `fields`, no version key. */
export function collectionSchema<D>(collection: string, fields: Fields, idType: unknown = String): Schema<D> {
  return new Schema<D>({ _id: { type: idType, required: true }, ...fields } as SchemaDefinition, { collection, versionKey: false });
}
