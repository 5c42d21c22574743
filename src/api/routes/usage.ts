// GET /v1/usage: the account's own usage ledger, totalled and grouped (day, voice, language or key) over a period;
// authenticated with the account's API key, counted in a window of its own (USAGE_REPORTS_PER_MINUTE per account, not
// the synthesis window). The totals come from the store's rollups (never every record) and are exact to the
// character; the records themselves are the operator's (`raaga usage --records`, paginated).

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { storeCall } from '../../core/store-call.js';
import { MAX_USAGE_PERIOD_DAYS, parseUsagePeriod } from '../../core/usage/usage-period.js';
import { USAGE_REPORTS_PER_MINUTE, admitUsageReport, reportUsage } from '../../core/usage/usage-report.js';
import { USAGE_GROUPINGS, type UsageTotals } from '../../core/usage/usage-summary.js';
import { ApiError } from '../../errors.js';
import { USAGE_OUTCOMES } from '../../store/store.js';
import type { ApiContext } from '../context.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';

export const UsageQuerySchema = z.strictObject({
  from: z
    .string()
    .optional()
    .meta({ description: 'First day (YYYY-MM-DD, local to `timezone`) or instant (ISO 8601 with offset). Default: the start of this month.' }),
  to: z
    .string()
    .optional()
    .meta({ description: `Last day, included whole (YYYY-MM-DD), or an instant, excluded. Default: now. At most ${MAX_USAGE_PERIOD_DAYS} days after from.` }),
  group_by: z
    .enum(USAGE_GROUPINGS, { error: `must be one of ${USAGE_GROUPINGS.join(', ')}` })
    .default('day')
    .meta({ description: "'day' (default; local days of `timezone`), 'voice', 'language' or 'key' (the API key's fingerprint; null for phone calls)." }),
  timezone: z.string().optional().meta({ description: "IANA time zone of the dates and of the days, e.g. 'Asia/Kolkata'. Default 'UTC'." }),
});

const TotalsSchema = z.strictObject({
  characters: z.number().int().meta({ description: 'Credits debited (characters billed).' }),
  requests: z.number().int().meta({ description: 'Settled requests and utterances, whatever their outcome.' }),
  audio_seconds: z.number(),
  outcomes: z.strictObject(Object.fromEntries(USAGE_OUTCOMES.map((o) => [o, z.number().int()])) as Record<(typeof USAGE_OUTCOMES)[number], z.ZodNumber>),
});

export const UsageReportSchema = z
  .strictObject({
    account_id: z.string(),
    from: z.string().meta({ description: 'The period as instants (ISO 8601, UTC): from included, to excluded.' }),
    to: z.string(),
    timezone: z.string(),
    group_by: z.enum(USAGE_GROUPINGS),
    total: TotalsSchema,
    groups: z.array(TotalsSchema.extend({ group: z.string().nullable() })),
  })
  .meta({ id: 'UsageReport' });

function totals(t: UsageTotals): z.output<typeof TotalsSchema> {
  return { characters: t.characters, requests: t.requests, audio_seconds: t.audioSeconds, outcomes: { ...t.outcomes } };
}

type UsageRequest = Pick<FastifyRequest, 'account'> & { readonly query: z.output<typeof UsageQuerySchema> };

async function usageReport(ctx: ApiContext, request: UsageRequest): Promise<z.output<typeof UsageReportSchema>> {
  const account = request.account;
  if (!account) throw new ApiError('invalid_api_key', 'Missing API key.');
  const { group_by: groupBy } = request.query;
  const period = parseUsagePeriod(request.query, Date.now());
  await admitUsageReport(ctx.store, account.id);
  const summary = await storeCall(() => reportUsage(ctx.store, account.id, period, groupBy));
  return {
    account_id: account.id,
    from: new Date(period.fromMs).toISOString(),
    to: new Date(period.toMs).toISOString(),
    timezone: period.timeZone,
    group_by: groupBy,
    total: totals(summary.total),
    groups: summary.groups.map((g) => ({ group: g.group, ...totals(g) })),
  };
}

export function registerUsageRoute(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  typed(app).get(
    '/v1/usage',
    {
      onRequest,
      schema: {
        tags: ['account'],
        operationId: 'getUsage',
        summary: `The account's usage over a period: characters billed, requests, audio seconds and outcomes, grouped. At most ${USAGE_REPORTS_PER_MINUTE} reports a minute per account, apart from the synthesis rate limit.`,
        querystring: UsageQuerySchema,
        response: {
          200: jsonResponse('Totals for the period and per group.', UsageReportSchema),
          ...errorResponses(['invalid_api_key', 'validation_error', 'rate_limit_exceeded', 'store_unavailable']),
        },
      },
    },
    (request) => usageReport(ctx, request),
  );
}
