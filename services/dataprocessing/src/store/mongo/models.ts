import { Schema, type Connection, type Model, type SchemaDefinition } from 'mongoose';
import { collectionSchema, nullableFields, requiredFields } from '@accord/common';

/**
 * Collections of the dataprocessing service. Ids are strings (ObjectId hex, so that sorting by
 * id is creation order); every document carries its accountId and every query filters by it.
 * Texts are embedded in their specification so that a specification and its texts change
 * together. Every state of a specification is a `dpspecversions` document; `dpspecs` holds a
 * copy of the newest one for lists (see app/registry.ts). The documents are the port's records
 * (domain/model.ts) with `_id` for `id`; store.ts maps them.
 */

export interface TextDoc {
  id: number;
  value: string;
  language: string;
  type: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface GroupDoc {
  _id: string;
  accountId: string;
  appId: string;
  name: string;
  description: string;
  purpose: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface SpecFieldsDoc {
  data: string;
  purpose: string;
  action: string;
  sensitive: boolean;
  consentTarget: boolean;
  location: string;
  duration: number | null;
  legalBasis: string | null;
  externalHref: string | null;
  consentValidityDays?: number | null;
  /**
   * Regimes by jurisdiction, normalised (keys `*` and upper case ISO codes, which hold no `.` nor
   * `$`); absent on documents written before them (the default, opt-in everywhere).
   */
  regimes?: Record<string, { model: string; gpc: string }>;
  /** Google Consent Mode v2 types; absent: none. */
  consentMode?: string[];
}

export interface SpecDoc extends SpecFieldsDoc {
  _id: string;
  accountId: string;
  groupId: string;
  appId: string;
  texts: TextDoc[];
  nextTextId: number;
  version: number;
  /** Absent on documents written before it existed (read as 1). */
  reconsentSince?: number;
  /**
   * A material version whose `consent.renewal_required` fan-out the consent service has not
   * acknowledged yet (set by the roll forward that raises reconsentSince, with `$max`; cleared
   * by AckRenewal for that version only). Absent otherwise, so the sparse index stays empty.
   */
  renewalPending?: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface SpecVersionDoc {
  /** `<specId>:<version>`: the primary key makes each (spec, version) exist once, and every lookup a key lookup. */
  _id: string;
  accountId: string;
  specId: string;
  version: number;
  createdAt: Date;
  appId: string;
  groupId: string;
  specCreatedAt: Date;
  /** Absent on documents written before it existed (read as 1). */
  reconsentSince?: number;
  state: SpecFieldsDoc;
  texts: TextDoc[];
  nextTextId: number;
  deletedAt: Date | null;
}

// `type` is a field name here, so it must be declared as { type: String } (as requiredFields does).
const textSchema = new Schema<TextDoc>(
  requiredFields({ id: Number, value: String, language: String, type: String, createdAt: Date, updatedAt: Date }) as SchemaDefinition<TextDoc>,
  { _id: false },
);

const specFields = {
  ...requiredFields({ data: String, purpose: String, action: String, sensitive: Boolean, consentTarget: Boolean, location: String }),
  ...nullableFields({ duration: Number, legalBasis: String, externalHref: String }),
  consentValidityDays: { type: Number },
  regimes: { type: Schema.Types.Mixed },
  consentMode: { type: [String], default: undefined },
};

const groupSchema = collectionSchema<GroupDoc>('dpgroups', {
  ...requiredFields({ accountId: String, appId: String }),
  name: { type: String, default: '' },
  description: { type: String, default: '' },
  purpose: { type: String, default: '' },
  ...requiredFields({ createdAt: Date, updatedAt: Date }),
  ...nullableFields({ deletedAt: Date }),
});
groupSchema.index({ accountId: 1, deletedAt: 1, _id: 1 });

const specSchema = collectionSchema<SpecDoc>('dpspecs', {
  ...requiredFields({ accountId: String, groupId: String, appId: String }),
  ...specFields,
  texts: { type: [textSchema], default: [] },
  ...requiredFields({ nextTextId: Number, version: Number }),
  reconsentSince: { type: Number },
  renewalPending: { type: Number },
  ...requiredFields({ createdAt: Date, updatedAt: Date }),
  ...nullableFields({ deletedAt: Date }),
});
specSchema.index({ accountId: 1, groupId: 1, deletedAt: 1, _id: 1 });
// The consent service polls for unacknowledged material changes: an idle poll seeks an empty index.
specSchema.index({ renewalPending: 1 }, { name: 'renewal_pending', sparse: true });

const specVersionSchema = collectionSchema<SpecVersionDoc>('dpspecversions', {
  ...requiredFields({ accountId: String, specId: String, version: Number, createdAt: Date, appId: String, groupId: String, specCreatedAt: Date }),
  reconsentSince: { type: Number },
  state: { type: new Schema(specFields, { _id: false }), required: true },
  texts: { type: [textSchema], default: [] },
  ...requiredFields({ nextTextId: Number }),
  ...nullableFields({ deletedAt: Date }),
});
// One document per (spec, version): the primary key (and this unique index) is what serialises
// concurrent changes of a specification, and keeps every state of it (app/registry.ts).
specVersionSchema.index({ specId: 1, version: 1 }, { unique: true });
specVersionSchema.index({ accountId: 1, specId: 1, version: -1 });

export interface Models {
  Group: Model<GroupDoc>;
  Spec: Model<SpecDoc>;
  SpecVersion: Model<SpecVersionDoc>;
}

export function defineModels(conn: Connection): Models {
  return {
    Group: conn.model<GroupDoc>('DpGroup', groupSchema),
    Spec: conn.model<SpecDoc>('DpSpec', specSchema),
    SpecVersion: conn.model<SpecVersionDoc>('DpSpecVersion', specVersionSchema),
  };
}
