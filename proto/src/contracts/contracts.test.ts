import { console as consoleApi, consent, dataprocessing, oauth, sessions, webhooks } from './index';

// The contracts are the one source of the gateway's request schemas: these tests pin how zod's
// output is turned into the OpenAPI 3.1 schemas the gateway validates against.
describe('the generated component schemas', () => {
  it('write nullable values as type [T, "null"], with null among the enum values', () => {
    const group = dataprocessing.dataprocessingSchemas.DpGroupInput as { properties: Record<string, Record<string, unknown>> };
    expect(group.properties.name).toEqual({ type: ['string', 'null'], maxLength: dataprocessing.LIMITS.nameLength, description: expect.any(String) });
    const text = dataprocessing.dataprocessingSchemas.DpTextCreateRequest as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(text.properties.type).toMatchObject({ type: ['string', 'null'], enum: [...dataprocessing.TEXT_TYPES, null] });
    expect(text.required).toEqual(['value', 'language']);
  });

  it('refer to other contract schemas by component name, and carry no $schema or $id', () => {
    const spec = dataprocessing.dataprocessingSchemas.DpSpecCreateRequest as { properties: { texts: { items: unknown } } };
    expect(spec.properties.texts.items).toEqual({ $ref: '#/components/schemas/DpTextCreateRequest' });
    for (const s of Object.values({ ...dataprocessing.dataprocessingSchemas, ...consent.consentSchemas, ...webhooks.webhooksSchemas })) {
      expect(s).not.toHaveProperty('$schema');
      expect(s).not.toHaveProperty('$id');
    }
  });

  it('state date-times by format only', () => {
    const input = consent.consentSchemas.ConsentInput as { properties: { expiresAt: Record<string, unknown> } };
    expect(input.properties.expiresAt).toEqual({ type: 'string', format: 'date-time', description: expect.any(String) });
  });

  it('state a record of anything as an object alone', () => {
    const payload = webhooks.webhooksSchemas.WebhookEventPayload as { properties: { data: Record<string, unknown> } };
    expect(payload.properties.data).toEqual({ type: 'object', description: expect.any(String) });
  });

  it('state a values-only enum without its type, so that another type is answered with the allowed values', () => {
    const update = consoleApi.consoleSchemas.ConsoleMemberUpdateRequest as { properties: { role: Record<string, unknown> } };
    expect(update.properties.role).toEqual({ enum: [...consoleApi.ROLES] });
  });

  it('state dates by format only', () => {
    const query = consoleApi.consoleSchemas.ConsoleStatisticsQuery as { properties: { from: Record<string, unknown> } };
    expect(query.properties.from).toEqual({ type: 'string', format: 'date', description: expect.any(String) });
  });

  it('take their limits from LIMITS', () => {
    const create = webhooks.webhooksSchemas.WebhookCreateRequest as { properties: Record<string, Record<string, unknown>> };
    expect(create.properties.events).toMatchObject({ maxItems: webhooks.LIMITS.events, items: { enum: webhooks.SUBSCRIBABLE_EVENT_TYPES } });
    expect(create.properties.headers).toMatchObject({ maxProperties: webhooks.LIMITS.headers });
  });
});

describe('the zod schemas', () => {
  it('accept the examples the document shows', () => {
    expect(
      consent.ConsentInput.safeParse({ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true }).success,
    ).toBe(true);
    expect(
      webhooks.WebhookCreateRequest.safeParse({ url: 'https://hooks.example.com/accord', events: ['consent'], headers: { Authorization: 'Bearer x' } }).success,
    ).toBe(true);
    expect(dataprocessing.SpecCreateRequest.safeParse({ data: 'e-mail', purpose: 'newsletter', action: 'collect' }).success).toBe(true);
  });

  it('describe the examples the document shows of its answers', () => {
    expect(consent.ConsentEvent.safeParse(consent.EXAMPLE_EVENT).error).toBeUndefined();
    expect(consent.ConsentErasure.safeParse(consent.EXAMPLE_ERASURE).error).toBeUndefined();
    const payload = webhooks.webhooksSchemas.WebhookEventPayload as { examples: unknown[] };
    expect(webhooks.WebhookEventPayload.safeParse(payload.examples[0]).error).toBeUndefined();
  });

  it('say what the document says of sessions and tokens', () => {
    expect(sessions.sessionsSchemas.ConsentSessionRequest).toMatchObject({ anyOf: [{ required: ['groupId'] }, { required: ['targets'] }] });
    expect(sessions.ConsentSessionRequest.safeParse({ subject: 'user-1', issuer: 'shop', groupId: 'g1' }).success).toBe(true);
    expect(sessions.ConsentSessionRequest.safeParse({ subject: 'user-1', issuer: 'shop' }).success).toBe(false);
    expect(oauth.TokenResponse.safeParse({ access_token: 'a', expires_in: 3600, scope: 'consent', refresh_token: 'r', token_type: 'Bearer' }).success).toBe(
      true,
    );
    expect(consoleApi.ConsoleTokenRequest.safeParse({ scopes: ['consent', 'consent'] }).success).toBe(false);
  });

  it('refuse what the document refuses', () => {
    expect(consent.ConsentEraseRequest.safeParse({ subject: 'erased:abc' }).success).toBe(false);
    const form = { subject: 's', issuer: 'i', target: 't', targetVersion: '', expiresAt: '' };
    expect(consent.ConsentFormRequest.safeParse(form).success).toBe(true);
    expect(consent.ConsentFormRequest.safeParse({ ...form, expiresAt: 'soon' }).success).toBe(false);
    expect(consent.ConsentCreateRequest.safeParse([]).success).toBe(false);
    expect(webhooks.WebhookUpdateRequest.safeParse({}).success).toBe(false);
    expect(webhooks.WebhookCreateRequest.safeParse({ url: 'https://h.example', events: ['ping'] }).success).toBe(false);
    expect(dataprocessing.SpecPutRequest.safeParse({ data: ' ', purpose: 'p', action: 'collect' }).success).toBe(false);
    expect(dataprocessing.TextCreateRequest.safeParse({ value: 'v', language: 'xx' }).success).toBe(false);
  });
});

describe('the webhook delivery defaults', () => {
  it('read as prose the way the document states them', () => {
    expect(webhooks.DELIVERY.retrySchedule.map(webhooks.durationText).join(', ')).toBe('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h');
    expect(webhooks.durationText(webhooks.DELIVERY.secretGrace)).toBe('24 h');
  });
});
