import { z } from 'zod';
import { claim, EVENT_ID_PATTERN, LIMITS, SubjectLink, withoutReplacement } from './consent';
import { componentSchemas, contractRegistry } from './json-schema';

/**
 * Linked identities (docs/consent.md, Linked identities): the link request, the list query and
 * the link event as answered. One source for the gateway's OpenAPI component schemas and request
 * validation; the consent service applies the same identifier rules (domain/link.ts).
 */
const registry = contractRegistry();

const name = (description: string) =>
  claim(LIMITS.subject, description)
    .refine((s) => !s.startsWith('erased:'))
    .meta({ not: { type: 'string', pattern: '^erased:' } });

export const SubjectLinkRequest = z
  .strictObject({
    issuer: claim(LIMITS.issuer, 'The issuer of the consent events the link joins (links hold per issuer).'),
    identity: name('The identity being linked: a device or cookie id the web components used. Stored exactly as sent.'),
    subject: name('The known subject the identity belongs to (e.g. the signed-in user id); null unlinks the identity.').nullable(),
  })
  .meta({
    description:
      'A link event: for one issuer, `identity` belongs to `subject` from now on (null: to no one). The newest link of an identity wins; an identity that has identities of its own, or a subject linked elsewhere as an identity, is refused (409): links never chain.',
    examples: [{ issuer: 'https://shop.example', identity: 'device-7f3a9c', subject: 'user-42' }],
  });
registry.add(SubjectLinkRequest, { id: 'SubjectLinkRequest' });

const matching = (description: string) => withoutReplacement(z.string().min(1).max(LIMITS.subject)).describe(description);

export const SubjectLinksQuery = z.object({
  issuer: matching('The issuer of the links.'),
  identity: matching('An identity: its current link (or its history).').optional(),
  subject: matching('A subject: the identities currently linked to it (or every link event naming it).').optional(),
  history: z.boolean().optional().describe('true: every link event, newest first, paged (`limit`, `Link: rel="next"`); default: the current links only.'),
  limit: z.int().min(1).max(1000).optional().describe('Links per page (default 100, at most 1000).'),
  cursor: z.string().regex(EVENT_ID_PATTERN).optional().describe('With history: from the `Link: rel="next"` header of the previous page.'),
});
registry.add(SubjectLinksQuery, { id: 'SubjectLinksQuery' });

/** The REST JSON of a link event (the schema is consent.ts's SubjectLink: subject exports hold links too). */
export type SubjectLinkJson = z.input<typeof SubjectLink>;
export { SubjectLink };

/** The OpenAPI component schemas of linked identities, by name. */
export const linkSchemas = componentSchemas(registry);
