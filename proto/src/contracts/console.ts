import { z } from 'zod';
import { componentSchemas, contractRegistry, valuesOnly } from './json-schema';
import { SCOPES } from './oauth';

/**
 * The console contract (/console/api): what the account web application sends and gets back.
 * Its answers document every field as optional (the console is the one client, and reads what
 * it shows), so their objects are `.partial()`.
 */

/** Member roles, most rights first. */
export const ROLES = ['owner', 'developer', 'viewer'] as const;

export const LIMITS = {
  nameLength: 200,
  signInLinkLength: 256,
  /** Path ids of applications and members. */
  idLength: 64,
  /** How long a rotated-out client secret or API key keeps working: 7 days. */
  graceSecondsMax: 604_800,
  origins: 50,
  originLength: 300,
  /** Days of one statistics query. */
  statisticsDays: 366,
} as const;

const registry = contractRegistry();

const dateTime = () => z.iso.datetime({ offset: true });
/** A time that may not have happened (yet): null then. */
const when = () => dateTime().nullable();
/** Enums by their values alone (see valuesOnly): a role or scope of another type is answered with the allowed values. */
const role = () => valuesOnly(z.enum(ROLES));
const scopes = () =>
  z
    .array(valuesOnly(z.enum(SCOPES)))
    .max(SCOPES.length)
    .refine((s) => new Set(s).size === s.length)
    .meta({ uniqueItems: true });

export const ConsoleStatisticsQuery = z.strictObject({
  from: z.iso.date().optional().describe('First UTC day (default: 29 days before `to`).'),
  to: z.iso.date().optional().describe(`Last UTC day (default: today). At most ${LIMITS.statisticsDays} days in all.`),
});
registry.add(ConsoleStatisticsQuery, { id: 'ConsoleStatisticsQuery' });

export const ConsoleSignInRequest = z.strictObject({
  link: z.string().min(1).max(LIMITS.signInLinkLength).describe('The token after `#link=` in the console link.'),
});
registry.add(ConsoleSignInRequest, { id: 'ConsoleSignInRequest' });

export const ConsoleSession = z
  .object({
    account: z.object({ id: z.string(), name: z.string() }).partial(),
    member: z.object({ id: z.string(), name: z.string(), role: role() }).partial(),
    csrfToken: z.string(),
    expiresAt: dateTime(),
    idleExpiresAt: dateTime(),
  })
  .partial();
registry.add(ConsoleSession, { id: 'ConsoleSession' });

export const ConsoleApplicationCreateRequest = z.strictObject({
  name: z.string().min(1).max(LIMITS.nameLength),
  scopes: scopes().optional(),
});
registry.add(ConsoleApplicationCreateRequest, { id: 'ConsoleApplicationCreateRequest' });

export const ConsoleRotateRequest = z.strictObject({
  graceSeconds: z.int().min(0).max(LIMITS.graceSecondsMax).optional().describe('How long the previous secret or key keeps working (max 7 days).'),
});
registry.add(ConsoleRotateRequest, { id: 'ConsoleRotateRequest' });

export const ConsoleTokenRequest = z.strictObject({
  scopes: scopes().optional().describe('Empty or absent: every scope of the application.'),
});
registry.add(ConsoleTokenRequest, { id: 'ConsoleTokenRequest' });

export const ConsoleApplication = z
  .object({
    id: z.string(),
    name: z.string(),
    clientId: z.string(),
    scopes: scopes(),
    createdAt: when(),
    disabledAt: when(),
    secretRotatedAt: when(),
    previousSecretExpiresAt: when(),
    allowedOrigins: z.array(z.string()).describe('Browser origins allowed for consent sessions (CORS).'),
  })
  .partial();
registry.add(ConsoleApplication, { id: 'ConsoleApplication' });

export const ConsoleOriginsRequest = z.strictObject({
  origins: z
    .array(z.string().max(LIMITS.originLength))
    .max(LIMITS.origins)
    .meta({
      description: 'Each `scheme://host[:port]` (http or https; no path, query or wildcard). Empty: no origin allowed.',
      examples: [['https://shop.example', 'http://localhost:3000']],
    }),
});
registry.add(ConsoleOriginsRequest, { id: 'ConsoleOriginsRequest' });

export const ConsoleMember = z.object({ id: z.string(), name: z.string(), role: role(), createdAt: when() }).partial();
registry.add(ConsoleMember, { id: 'ConsoleMember' });

export const ConsoleInviteRequest = z.strictObject({
  name: z.string().min(1).max(LIMITS.nameLength).describe('The new member name (unique in the account).'),
  role: role(),
});
registry.add(ConsoleInviteRequest, { id: 'ConsoleInviteRequest' });

export const ConsoleMemberUpdateRequest = z.strictObject({ role: role() });
registry.add(ConsoleMemberUpdateRequest, { id: 'ConsoleMemberUpdateRequest' });

export const ConsoleInvite = z
  .object({
    member: ConsoleMember,
    link: z.string().describe('The one-time sign-in URL (the token is in the fragment).'),
    expiresAt: dateTime(),
  })
  .partial();
registry.add(ConsoleInvite, { id: 'ConsoleInvite' });

export const ConsoleApplicationWithSecret = z.object({ application: ConsoleApplication, clientSecret: z.string() }).partial();
registry.add(ConsoleApplicationWithSecret, { id: 'ConsoleApplicationWithSecret' });

export const ConsoleTokenFamily = z
  .object({ id: z.string(), createdAt: when(), expiresAt: when(), revokedAt: when(), revokedReason: z.string().nullable() })
  .partial();
registry.add(ConsoleTokenFamily, { id: 'ConsoleTokenFamily' });

export const ConsoleApiKey = z
  .object({
    masked: z.string().meta({ examples: ['ak_…x9Qz'] }),
    apiKey: z.string(),
    rotatedAt: when(),
    previousExpiresAt: when(),
  })
  .partial();
registry.add(ConsoleApiKey, { id: 'ConsoleApiKey' });

/** The OpenAPI component schemas of the console API, by name. */
export const consoleSchemas = componentSchemas(registry);
