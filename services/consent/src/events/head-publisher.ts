import { createHash } from 'node:crypto';
import type { JetStreamClient } from 'nats';
import { eventSubject, type EventEnvelope } from '@accord/common';
import type { TreeHead } from '@accord/proofs';
import type { TreeHeadRecord } from '../app/ports';

/** The event type of a new signed tree head (webhooks subscribe to it; docs/consent-log.md). */
export const TREE_HEAD_EVENT = 'log.tree_head';
/** The application part of a tree head's subject: heads belong to the account, not to one application. */
export const ACCOUNT_WIDE_APP = '_';

/**
 * The bus envelope of a tree head: `data` is exactly the body of GET /consent/v0/log/tree-head.
 * Its id is derived from (account, treeSize), so a head published twice (two replicas, a
 * retry) is one JetStream message (Nats-Msg-Id dedupe) and one webhook delivery.
 */
export function treeHeadEnvelope(head: TreeHeadRecord): EventEnvelope<TreeHead> {
  const id = createHash('sha256').update(`${TREE_HEAD_EVENT}\0${head.accountId}\0${head.treeSize}`).digest('hex').slice(0, 32);
  const timestamp = head.timestamp.toISOString();
  return {
    id,
    type: TREE_HEAD_EVENT,
    accountId: head.accountId,
    appId: '',
    occurredAt: timestamp,
    data: { treeSize: head.treeSize, rootHash: head.rootHash, timestamp, signature: head.signature },
  };
}

/** NATS subject of an account's tree heads: `<prefix>.events.log.tree_head.<accountId>._`. */
export function treeHeadSubject(prefix: string, accountId: string): string {
  return eventSubject(prefix, TREE_HEAD_EVENT, accountId, ACCOUNT_WIDE_APP);
}

/**
 * Publishes a new head on the event stream (witnesses subscribe to the subject; the webhook
 * service delivers it to `log.tree_head` webhooks). Best effort by design: a head that is not
 * published is still stored and served, and the next head covers it (a witness checks the
 * consistency proof between the heads it saw).
 */
export function headPublisher(js: Pick<JetStreamClient, 'publish'>, prefix: string, timeoutMs: number): (head: TreeHeadRecord) => Promise<void> {
  return async (head) => {
    const env = treeHeadEnvelope(head);
    await js.publish(treeHeadSubject(prefix, head.accountId), Buffer.from(JSON.stringify(env)), { msgID: env.id, timeout: timeoutMs });
  };
}
