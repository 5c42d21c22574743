// The call-control bus over Redis pub/sub: each instance subscribes to one channel per call it holds and to its
// own reply channel. A command for a call held elsewhere is published on the call's channel; PUBLISH returns how
// many subscribers got it, so "nobody holds this call" is known at once (404) without waiting for a timeout.

import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { CALL_NOT_FOUND, InProcessCallControlBus, type CallCommandHandler, type CallControlBus } from '../call-control-bus.js';
import { commandWaitMs, type CallCommand, type CallCommandResult } from '../../call-commands.js';
import { createRedisClient } from './client.js';
import { redactUrl } from './replies.js';

export interface RedisCallControlBusOptions {
  readonly url: string;
  readonly keyPrefix: string;
  /** Redis Cluster: PUBLISH counts only the receiving node's subscribers, so an unknown call is a timeout, not 0. */
  readonly cluster?: boolean;
  readonly commandTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
  /** The holder must answer within this long (default 2000). */
  readonly replyTimeoutMs?: number;
}

const CommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('say'), text: z.string(), interruptible: z.boolean(), utteranceId: z.string().optional() }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('hangup'), drain: z.boolean() }),
  z.object({ type: z.literal('transfer'), to: z.string(), callerId: z.string().optional(), timeoutS: z.number().optional() }),
  z.object({
    type: z.literal('gather'),
    gather: z.object({
      gatherId: z.string().optional(),
      prompt: z.string().optional(),
      numDigits: z.number().optional(),
      finishOnKey: z.string(),
      timeoutMs: z.number(),
      interDigitTimeoutMs: z.number(),
      interruptible: z.boolean(),
    }),
  }),
  z.object({ type: z.literal('gather_result'), gatherId: z.string(), waitMs: z.number() }),
  z.object({ type: z.literal('after_stream') }),
]);
const RequestSchema = z.object({ id: z.string(), replyTo: z.string(), accountId: z.string(), command: CommandSchema });
const ReplySchema = z.object({
  id: z.string(),
  result: z.union([
    z.object({
      ok: z.literal(true),
      utteranceId: z.string().optional(),
      gatherId: z.string().optional(),
      gather: z.union([z.object({ status: z.literal('pending') }), z.object({ status: z.literal('done'), digits: z.string(), reason: z.string() })]).optional(),
      afterStream: z.object({ to: z.string(), callerId: z.string().optional(), timeoutS: z.number().optional() }).nullable().optional(),
    }),
    z.object({ ok: z.literal(false), reason: z.enum(['not_found', 'unavailable']), message: z.string() }),
  ]),
});

export class RedisCallControlBus implements CallControlBus {
  readonly #local = new InProcessCallControlBus();
  readonly #pending = new Map<string, (result: CallCommandResult) => void>();
  readonly #replyChannel: string;
  readonly #replyTimeoutMs: number;
  #closed = false;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly options: RedisCallControlBusOptions,
  ) {
    this.#replyChannel = `${options.keyPrefix}call-replies:${randomUUID()}`;
    this.#replyTimeoutMs = options.replyTimeoutMs ?? 2000;
    sub.on('message', (channel: string, message: string) => void this.#onMessage(channel, message));
  }

  static async connect(options: RedisCallControlBusOptions): Promise<RedisCallControlBus> {
    // Pub/sub reaches every node of a cluster through any one connection, so these are plain connections.
    const common = { url: options.url, connectTimeoutMs: options.connectTimeoutMs, connectionName: 'raaga-calls' } as const;
    const pub = createRedisClient({ ...common, commandTimeoutMs: options.commandTimeoutMs });
    const sub = createRedisClient({ ...common, subscriber: true });
    try {
      await Promise.all([pub.connect(), sub.connect()]);
    } catch (error) {
      pub.disconnect();
      sub.disconnect();
      throw new Error(`cannot reach Redis for call control at ${redactUrl(options.url)}: ${(error as Error).message}`);
    }
    const bus = new RedisCallControlBus(pub, sub, options);
    await sub.subscribe(bus.#replyChannel);
    return bus;
  }

  #callChannel(callSid: string): string {
    return `${this.options.keyPrefix}calls:${callSid}`;
  }

  async register(callSid: string, accountId: string, handler: CallCommandHandler): Promise<(() => void) | null> {
    const unregister = await this.#local.register(callSid, accountId, handler);
    if (unregister === null) return null;
    const channel = this.#callChannel(callSid);
    try {
      await this.sub.subscribe(channel);
    } catch {
      // Redis is down: the call still works locally; remote control returns once the subscriber reconnects.
    }
    return () => {
      unregister();
      if (!this.#local.has(callSid) && !this.#closed) void this.sub.unsubscribe(channel).catch(() => undefined);
    };
  }

  async send(callSid: string, accountId: string, command: CallCommand): Promise<CallCommandResult> {
    if (this.#local.has(callSid)) return this.#local.send(callSid, accountId, command);
    const id = randomUUID();
    const reply = new Promise<CallCommandResult>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        resolve(
          this.options.cluster
            ? CALL_NOT_FOUND
            : { ok: false, reason: 'unavailable', message: 'The instance holding the call did not answer in time; retry.' },
        );
      }, this.#replyTimeoutMs + commandWaitMs(command));
      timer.unref();
      this.#pending.set(id, (result) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(result);
      });
    });
    let receivers: number;
    try {
      receivers = await this.pub.publish(this.#callChannel(callSid), JSON.stringify({ id, replyTo: this.#replyChannel, accountId, command }));
    } catch (error) {
      this.#pending.get(id)?.({ ok: false, reason: 'unavailable', message: `Call control is unavailable (Redis: ${(error as Error).message}); retry.` });
      return reply;
    }
    if (receivers === 0 && !this.options.cluster) this.#pending.get(id)?.(CALL_NOT_FOUND);
    return reply;
  }

  async #onMessage(channel: string, raw: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return;
    }
    if (channel === this.#replyChannel) {
      const parsed = ReplySchema.safeParse(json);
      if (parsed.success) this.#pending.get(parsed.data.id)?.(parsed.data.result);
      return;
    }
    const request = RequestSchema.safeParse(json);
    if (!request.success) return;
    const callSid = channel.slice(this.#callChannel('').length);
    const result = await this.#local.send(callSid, request.data.accountId, request.data.command);
    await this.pub.publish(request.data.replyTo, JSON.stringify({ id: request.data.id, result })).catch(() => undefined);
  }

  localCalls(): number {
    return this.#local.localCalls();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#local.close();
    for (const client of [this.sub, this.pub]) {
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    }
  }
}
