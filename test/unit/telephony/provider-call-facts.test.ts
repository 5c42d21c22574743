// Provider webhook fields → the call's direction and answered_by, as the agent gets them in call_started.

import { describe, expect, it } from 'vitest';
import { plivoCallFacts, twilioCallFacts } from '../../../src/telephony/provider-call-facts.js';

describe('provider call facts', () => {
  it("Twilio: every Direction and AnsweredBy value Twilio documents, and nothing when it sends none", () => {
    expect(twilioCallFacts({ Direction: 'inbound' })).toEqual({ direction: 'inbound' });
    expect(twilioCallFacts({ Direction: 'outbound-api' })).toEqual({ direction: 'outbound' });
    expect(twilioCallFacts({ Direction: 'outbound-dial' })).toEqual({ direction: 'outbound' });
    for (const machine of ['machine_start', 'machine_end_beep', 'machine_end_silence', 'machine_end_other']) {
      expect(twilioCallFacts({ Direction: 'outbound-api', AnsweredBy: machine })).toEqual({ direction: 'outbound', answered_by: 'machine' });
    }
    for (const same of ['human', 'fax', 'unknown'] as const) expect(twilioCallFacts({ AnsweredBy: same })).toEqual({ answered_by: same });
    expect(twilioCallFacts({ AnsweredBy: 'something-new' })).toEqual({ answered_by: 'unknown' });
    expect(twilioCallFacts({ Direction: 'sideways', AnsweredBy: '' })).toEqual({});
    expect(twilioCallFacts({})).toEqual({});
  });

  it('Plivo: Direction only', () => {
    expect(plivoCallFacts({ Direction: 'inbound' })).toEqual({ direction: 'inbound' });
    expect(plivoCallFacts({ Direction: 'outbound', Machine: 'true' })).toEqual({ direction: 'outbound' });
    expect(plivoCallFacts({})).toEqual({});
  });
});
