import { collectionSchema, nullableFields, requiredFields } from './mongo-schema';

describe('schema fields by how they may be missing', () => {
  it('declares required and nullable fields, a required _id of the given type, the collection and no version key', () => {
    const schema = collectionSchema(
      'things',
      { ...requiredFields({ name: String, at: Date }), ...nullableFields({ gone: Date }), note: { type: String, default: '' } },
      Number,
    );
    expect(schema.obj).toEqual({
      _id: { type: Number, required: true },
      name: { type: String, required: true },
      at: { type: Date, required: true },
      gone: { type: Date, default: null },
      note: { type: String, default: '' },
    });
    expect(Object.keys(schema.obj)).toEqual(['_id', 'name', 'at', 'gone', 'note']);
    expect(schema.get('collection')).toBe('things');
    expect(schema.get('versionKey')).toBe(false);
  });
});
