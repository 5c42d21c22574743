// Where Twilio reaches Raaga: the voice webhook, the media stream (generic and per account), the stream status
// callback, the <Connect> action and a transfer's <Dial> action.

export const TWILIO_PREFIX = '/v1/telephony/twilio';
export const TWILIO_VOICE_PATH = `${TWILIO_PREFIX}/voice`;
export const TWILIO_MEDIA_PATH = `${TWILIO_PREFIX}/media`;
export const TWILIO_STATUS_PATH = `${TWILIO_PREFIX}/status`;
export const TWILIO_CONNECT_ACTION_PATH = `${TWILIO_PREFIX}/connect-action`;
/** Where Twilio reports a transfer's outcome: `${origin}${TWILIO_DIAL_ACTION_PATH}/{account}?{call settings}`. */
export const TWILIO_DIAL_ACTION_PATH = `${TWILIO_PREFIX}/dial-action`;
