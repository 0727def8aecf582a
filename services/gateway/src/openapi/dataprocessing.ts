import { contracts } from '@accord/proto';
import { errorResponses } from './common';
import { formatParameter, jsonLdContent, notAcceptable } from './consent';
import { queryParameters } from './params';
import { ref, type OpenApiFragment } from './types';

/**
 * /dataprocessing/v0: paths, parameters and responses. Every component schema (requests, queries,
 * answers), enum and limit is generated from the contract, @accord/proto's contracts/dataprocessing.ts.
 */
const { LIMITS, dataprocessingSchemas } = contracts.dataprocessing;
const inputs = dataprocessingSchemas;

type QuerySchema = { properties: Record<string, Record<string, unknown>>; required?: readonly string[] };
const security = [{ bearer: [] }];
const tags = ['dataprocessing'];
const errors = (...codes: (keyof typeof errorResponses)[]) => Object.fromEntries(codes.map((c) => [c, errorResponses[c]]));
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const json = (schema: unknown, description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
});
const body = (schema: string, example?: unknown) => ({
  required: true,
  content: { 'application/json': { schema: ref(schema), ...(example ? { example } : {}) } },
});
const pathParam = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});
const groupId = pathParam('group_id', 'Id of the group.');
const specId = pathParam('spec_id', 'Id of the specification.');
const textId = pathParam('text_id', 'Id of the text within its specification.', { type: 'integer', minimum: 1 });
const etag = { ETag: { description: 'The specification version as an entity tag, e.g. `"3"`; send it back in `If-Match`.', schema: { type: 'string' } } };
const link = { Link: { description: 'Present when there is a next page: `<url>; rel="next"`.', schema: { type: 'string' } } };
const ifMatch = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'The ETag of the version the change is based on (`*`: any). When it is not the current ETag (the specification has moved on, or the value is no ETag at all), 412 and nothing changes.',
  schema: { type: 'string', examples: ['"3"'] },
};
/** The answers to a PATCH or PUT of a specification. */
const specChanged = {
  '200': json(ref('DpSpec'), 'The specification.', etag),
  '409': problem('Too many concurrent changes; retry.'),
  '412': problem('If-Match does not match the current version.'),
  ...errors('400', '401', '403', '404', '413', '503'),
};
/** The answers to a PATCH or PUT of a text. */
const textChanged = {
  '200': json(ref('DpText'), 'The text.'),
  '409': problem('Language and type clash with another text.'),
  ...errors('400', '401', '403', '404', '413', '503'),
};

const viewParams = queryParameters(inputs.DpViewQuery as QuerySchema);
const policyParams = queryParameters(inputs.DpPolicyQuery as QuerySchema);

export const dataprocessingOpenApi: OpenApiFragment = {
  tags: [
    {
      name: 'dataprocessing',
      description:
        'Data processing groups, their versioned specifications and multilingual texts; privacy-policy sections, consent requests and consent dashboards. Needs scope `dataprocessing`; data is per account (another account’s resources are 404).',
    },
  ],
  paths: {
    '/dataprocessing/v0/dpgroups': {
      post: {
        tags,
        operationId: 'createDpGroup',
        summary: 'Create a group.',
        security,
        requestBody: body('DpGroupInput', { description: 'Newsletter', name: 'Newsletter', purpose: 'marketing' }),
        responses: { '201': json(ref('DpGroup'), 'The group.', { Location: { schema: { type: 'string' } } }), ...errors('400', '401', '403', '413', '503') },
      },
      get: {
        tags,
        operationId: 'listDpGroups',
        summary: 'List the account’s groups, oldest first, page by page.',
        security,
        parameters: queryParameters(inputs.DpListQuery as QuerySchema),
        responses: { '200': json({ type: 'array', items: ref('DpGroup') }, 'A page of groups.', link), ...errors('400', '401', '403', '503') },
      },
    },
    '/dataprocessing/v0/dpgroups/{group_id}': {
      parameters: [groupId],
      get: {
        tags,
        operationId: 'getDpGroup',
        summary: 'Read a group.',
        security,
        responses: { '200': json(ref('DpGroup'), 'The group.'), ...errors('401', '403', '404', '503') },
      },
      patch: {
        tags,
        operationId: 'patchDpGroup',
        summary: 'Change the fields sent (null resets a field to empty).',
        security,
        requestBody: body('DpGroupInput'),
        responses: { '200': json(ref('DpGroup'), 'The group.'), ...errors('400', '401', '403', '404', '413', '503') },
      },
      put: {
        tags,
        operationId: 'putDpGroup',
        summary: 'Replace the group’s fields (absent ones become empty).',
        security,
        requestBody: body('DpGroupInput'),
        responses: { '200': json(ref('DpGroup'), 'The group.'), ...errors('400', '401', '403', '404', '413', '503') },
      },
      delete: {
        tags,
        operationId: 'deleteDpGroup',
        summary: 'Delete a group; its specifications are archived (still readable by id, with their versions).',
        security,
        responses: { '204': { description: 'Deleted.' }, ...errors('401', '403', '404', '503') },
      },
    },
    '/dataprocessing/v0/dpgroups/{group_id}/specs': {
      parameters: [groupId],
      post: {
        tags,
        operationId: 'createDpSpec',
        summary: 'Create a specification in a group (version 1), optionally with texts.',
        security,
        requestBody: body('DpSpecCreateRequest', { data: 'e-mail', purpose: 'newsletter', action: 'collect' }),
        responses: {
          '201': json(ref('DpSpec'), 'The specification.', { ...etag, Location: { description: 'Its consent target URL.', schema: { type: 'string' } } }),
          '409': problem('Two texts with the same language and type.'),
          ...errors('400', '401', '403', '404', '413', '503'),
        },
      },
      get: {
        tags,
        operationId: 'listDpSpecs',
        summary: 'List the group’s specifications (not deleted ones), oldest first, page by page.',
        security,
        parameters: queryParameters(inputs.DpListQuery as QuerySchema),
        responses: { '200': json({ type: 'array', items: ref('DpSpec') }, 'A page of specifications.', link), ...errors('400', '401', '403', '404', '503') },
      },
    },
    '/dataprocessing/v0/dpgroups/{group_id}/policy': {
      parameters: [groupId],
      get: {
        tags,
        operationId: 'getDpGroupPolicy',
        summary: 'The group as an HTML section of a privacy policy.',
        description:
          'A `<section data-ref="urn:accord:dpgroup:<id>">` with the group name (h2), description and purpose, and one `<li data-ref="urn:accord:dpspec:<id>">` per specification carrying its facts as data attributes (data-target, data-version, data-data, data-purpose, data-action, data-sensitive, data-consent-target, data-location, data-duration-days, data-legal-basis), the chosen text with its `lang`, and a link to `externalHref`. All user text is HTML-escaped.',
        security,
        parameters: policyParams,
        responses: {
          '200': {
            description: 'The HTML section (`Content-Language` is the requested language when given).',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          ...errors('400', '401', '403', '404', '503'),
        },
      },
    },
    '/dataprocessing/v0/dpgroups/{group_id}/consent-request': {
      parameters: [groupId],
      get: {
        tags,
        operationId: 'getDpConsentRequest',
        summary: 'What a consent request UI needs: title (group name), caption (group description), one item per consent-target specification.',
        description:
          'Each item carries its specification’s `regime` in the subject’s jurisdiction (the `jurisdiction` query, else the trusted geo header when ACCORD_GEO_HEADER is set, else `*`), what the UI pre-selects there (`preselected`), and whether a Global Privacy Control signal decided it (`gpcApplied`, with `gpc=true`). docs/consent.md, Signals and regimes.',
        security,
        parameters: viewParams,
        responses: { '200': json(ref('DpConsentRequest'), 'The consent request.'), ...errors('400', '401', '403', '404', '503') },
      },
    },
    '/dataprocessing/v0/dpgroups/{group_id}/dashboard': {
      parameters: [groupId],
      get: {
        tags,
        operationId: 'getDpDashboard',
        summary: 'The consent request items with the subject’s current consent for each (from the consent registry).',
        description:
          'As the consent request, with the pre-selection taken from the subject’s current choice of the `default` scope: an explicit choice stands, unless the regime honours GPC, `gpc=true` and the choice was made without the signal (then the signal declines: `gpcApplied`). 503 when the consent registry cannot be reached (no partial answer).',
        security,
        parameters: queryParameters(inputs.DpDashboardQuery as QuerySchema),
        responses: { '200': json(ref('DpDashboard'), 'The dashboard.'), ...errors('400', '401', '403', '404', '503') },
      },
    },
    '/dataprocessing/v0/dpspecs/{spec_id}': {
      parameters: [specId],
      get: {
        tags,
        operationId: 'getDpSpec',
        summary: 'Read a specification (its consent target URL); deleted ones answer with `archived: true`.',
        description:
          'With `Accept: application/ld+json` (preferred to application/json) or `format=jsonld`: the specification (as of its current version) as a `dpv:Process` in W3C DPV JSON-LD — purpose, personal data category, processing operation, ' +
          'legal basis (`eu-gdpr:A6-1-a` … `A6-1-f`), location and storage duration (docs/consent.md, *ISO/IEC TS 27560 in DPV*).',
        security,
        parameters: formatParameter,
        responses: {
          '200': {
            ...json(ref('DpSpec'), 'The specification (or its DPV view).', etag),
            content: { 'application/json': { schema: ref('DpSpec') }, ...jsonLdContent },
          },
          '406': notAcceptable,
          ...errors('400', '401', '403', '404', '503'),
        },
      },
      patch: {
        tags,
        operationId: 'patchDpSpec',
        summary: 'Change the fields sent (null resets a field to its default); the previous state becomes a version.',
        description: 'A change that changes nothing makes no version. Texts are changed through /texts. Deleted specifications are read-only (404).',
        security,
        parameters: [ifMatch],
        requestBody: body('DpSpecPatchRequest', { purpose: 'weekly newsletter' }),
        responses: specChanged,
      },
      put: {
        tags,
        operationId: 'putDpSpec',
        summary: 'Replace the specification’s fields (absent optional ones take their defaults); texts are kept.',
        security,
        parameters: [ifMatch],
        requestBody: body('DpSpecPutRequest'),
        responses: specChanged,
      },
      delete: {
        tags,
        operationId: 'deleteDpSpec',
        summary: 'Delete (archive) a specification: recorded as a new version; it stays readable with its versions, leaves lists and views, and cannot change.',
        security,
        responses: { '204': { description: 'Deleted.' }, ...errors('401', '403', '404', '503') },
      },
    },
    '/dataprocessing/v0/dpspecs/{spec_id}/versions': {
      parameters: [specId],
      get: {
        tags,
        operationId: 'listDpSpecVersions',
        summary: `Previous versions, newest first (up to ${LIMITS.versionsKept} kept; the oldest is dropped first).`,
        security,
        responses: { '200': json({ type: 'array', items: ref('DpSpecVersion') }, 'The previous versions.'), ...errors('401', '403', '404', '503') },
      },
    },
    '/dataprocessing/v0/dpspecs/{spec_id}/versions/{n}': {
      parameters: [specId, pathParam('n', 'Version number (the current one or a kept previous one).', { type: 'integer', minimum: 1 })],
      get: {
        tags,
        operationId: 'getDpSpecVersion',
        summary: 'One version of a specification.',
        security,
        responses: { '200': json(ref('DpSpecVersion'), 'The version.'), ...errors('401', '403', '404', '503') },
      },
    },
    '/dataprocessing/v0/dpspecs/{spec_id}/texts': {
      parameters: [specId],
      post: {
        tags,
        operationId: 'createDpText',
        summary: 'Add a text (makes a new specification version).',
        security,
        requestBody: body('DpTextCreateRequest', { value: 'We send you our newsletter.', language: 'en' }),
        responses: {
          '201': json(ref('DpText'), 'The text.'),
          '409': problem(`The specification already has a text of this language and type, or already holds ${LIMITS.textsPerSpec} texts.`),
          ...errors('400', '401', '403', '404', '413', '503'),
        },
      },
      get: {
        tags,
        operationId: 'listDpTexts',
        summary: 'The specification’s texts.',
        security,
        responses: { '200': json({ type: 'array', items: ref('DpText') }, 'The texts.'), ...errors('401', '403', '404', '503') },
      },
    },
    '/dataprocessing/v0/dpspecs/{spec_id}/texts/{text_id}': {
      parameters: [specId, textId],
      get: {
        tags,
        operationId: 'getDpText',
        summary: 'Read a text.',
        security,
        responses: { '200': json(ref('DpText'), 'The text.'), ...errors('401', '403', '404', '503') },
      },
      patch: {
        tags,
        operationId: 'patchDpText',
        summary: 'Change the fields sent (makes a new specification version).',
        security,
        requestBody: body('DpTextPatchRequest'),
        responses: textChanged,
      },
      put: {
        tags,
        operationId: 'putDpText',
        summary: 'Replace the text (makes a new specification version).',
        security,
        requestBody: body('DpTextCreateRequest'),
        responses: textChanged,
      },
      delete: {
        tags,
        operationId: 'deleteDpText',
        summary: 'Remove a text (makes a new specification version).',
        security,
        responses: { '204': { description: 'Removed.' }, ...errors('401', '403', '404', '503') },
      },
    },
  },
  schemas: dataprocessingSchemas,
};
