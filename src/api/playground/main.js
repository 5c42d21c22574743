// Wires the playground page: the API key (sessionStorage only), voice and language pickers from /v1/voices, and
// the three modes (HTTP, WebSocket, call simulator). Each step leaves its state in data-* attributes so the
// browser test can follow it without scraping prose.

import { ApiError, createApi } from './api.js';
import { base64ToBytes, playableBlob } from './audio-files.js';
import { drawCallTimeline } from './call-timeline.js';
import { splitSentences, WsSpeaker } from './ws-speaker.js';

const KEY_STORAGE = 'raaga.apiKey';
const byId = (id) => document.getElementById(id);
const ui = {
  key: byId('api-key'),
  keyStatus: byId('key-status'),
  language: byId('language'),
  voice: byId('voice'),
  format: byId('format'),
  sampleRate: byId('sample-rate'),
  speed: byId('speed'),
  speedValue: byId('speed-value'),
  text: byId('text'),
  player: byId('player'),
  httpStatus: byId('http-status'),
  wsStatus: byId('ws-status'),
  wsLog: byId('ws-log'),
  wsSpeak: byId('ws-speak'),
  wsStop: byId('ws-stop'),
  callStatus: byId('call-status'),
};

const api = createApi(() => ui.key.value.trim());
let voicesByLanguage = {};

function setStatus(node, text, kind = '') {
  node.textContent = text;
  node.className = `status ${kind}`;
}

function describeError(error) {
  return error instanceof ApiError ? error.describe() : error.message;
}

function requestBody() {
  return {
    model_id: 'raaga-v1',
    voice: ui.voice.value,
    language: ui.language.value,
    text: ui.text.value,
    output_format: ui.format.value,
    sample_rate: Number(ui.sampleRate.value),
    speed: Number(ui.speed.value),
  };
}

// ---- key and catalog ------------------------------------------------------------------------------

ui.key.value = sessionStorage.getItem(KEY_STORAGE) ?? '';
ui.key.addEventListener('change', () => sessionStorage.setItem(KEY_STORAGE, ui.key.value.trim()));

function fillVoices() {
  const previous = ui.voice.value;
  const voices = voicesByLanguage[ui.language.value] ?? [];
  ui.voice.replaceChildren(...voices.map((v) => new Option(`${v.voice_name} (${v.gender})`, v.voice_name)));
  if (voices.some((v) => v.voice_name === previous)) ui.voice.value = previous;
}

async function loadVoices() {
  sessionStorage.setItem(KEY_STORAGE, ui.key.value.trim());
  setStatus(ui.keyStatus, 'Loading voices…');
  try {
    voicesByLanguage = await api.voices();
    const previous = ui.language.value || 'hi-IN';
    ui.language.replaceChildren(...Object.keys(voicesByLanguage).map((code) => new Option(code, code)));
    ui.language.value = voicesByLanguage[previous] ? previous : Object.keys(voicesByLanguage)[0];
    fillVoices();
    const count = new Set(Object.values(voicesByLanguage).flat().map((v) => v.voice_name)).size;
    setStatus(ui.keyStatus, `Connected: ${count} voices in ${Object.keys(voicesByLanguage).length} languages.`, 'ok');
    document.body.dataset.voices = 'loaded';
  } catch (error) {
    setStatus(ui.keyStatus, describeError(error), 'bad');
    document.body.dataset.voices = 'failed';
  }
}

byId('load-voices').addEventListener('click', loadVoices);
ui.key.addEventListener('keydown', (event) => event.key === 'Enter' && loadVoices());
ui.language.addEventListener('change', fillVoices);
ui.speed.addEventListener('input', () => (ui.speedValue.textContent = Number(ui.speed.value).toFixed(2)));

// ---- tabs ---------------------------------------------------------------------------------------------

for (const tab of document.querySelectorAll('[role=tab]')) {
  tab.addEventListener('click', () => {
    for (const other of document.querySelectorAll('[role=tab]')) other.setAttribute('aria-selected', String(other === tab));
    for (const panel of document.querySelectorAll('.tab')) panel.hidden = panel.id !== `tab-${tab.dataset.tab}`;
  });
}

// ---- HTTP ---------------------------------------------------------------------------------------------

let audioUrl;
ui.player.addEventListener('loadedmetadata', () => {
  ui.player.dataset.duration = String(ui.player.duration);
  ui.player.dataset.state = 'loaded';
});
ui.player.addEventListener('error', () => (ui.player.dataset.state = 'error'));

byId('speak').addEventListener('click', async () => {
  const body = requestBody();
  const mode = document.querySelector('input[name=http-mode]:checked').value;
  ui.player.dataset.state = 'requesting';
  setStatus(ui.httpStatus, `POST /v1/tts/${mode}…`);
  const started = performance.now();
  try {
    let bytes;
    let summary;
    if (mode === 'generate') {
      const result = await api.generate(body);
      bytes = base64ToBytes(result.audio);
      summary = `${result.duration_seconds.toFixed(2)} s of ${result.format}, ${result.characters_used} credits, ${Math.round(performance.now() - started)} ms`;
    } else {
      let firstMs = 0;
      const result = await api.stream(body, () => (firstMs = performance.now() - started));
      bytes = result.bytes;
      summary = `${bytes.length} bytes of ${body.output_format}, first bytes after ${Math.round(firstMs)} ms, ${result.charactersUsed} credits`;
    }
    if (audioUrl) URL.revokeObjectURL(audioUrl);
    audioUrl = URL.createObjectURL(playableBlob(bytes, body.output_format, body.sample_rate));
    ui.player.src = audioUrl;
    setStatus(ui.httpStatus, summary, 'ok');
    await ui.player.play().catch(() => undefined); // autoplay may be refused; the controls still work
  } catch (error) {
    ui.player.dataset.state = 'error';
    setStatus(ui.httpStatus, describeError(error), 'bad');
  }
});

// ---- WebSocket ----------------------------------------------------------------------------------------

let speaker;

function logWs(kind, detail) {
  const item = document.createElement('li');
  item.textContent = `${kind}: ${detail}`;
  ui.wsLog.append(item);
  ui.wsLog.scrollTop = ui.wsLog.scrollHeight;
}

function setWsState(state) {
  document.body.dataset.wsState = state;
  const labels = { speaking: 'Speaking…', cancelling: 'Cancelling…', cancelled: 'Stopped: the server confirmed the cancellation.', done: 'Done.', error: 'Failed.' };
  setStatus(ui.wsStatus, labels[state] ?? state, state === 'error' ? 'bad' : state === 'speaking' || state === 'cancelling' ? '' : 'ok');
}

ui.wsSpeak.addEventListener('click', async () => {
  const sentences = splitSentences(ui.text.value);
  if (sentences.length === 0) return setStatus(ui.wsStatus, 'Type some text first.', 'bad');
  ui.wsLog.replaceChildren();
  ui.wsSpeak.disabled = true;
  ui.wsStop.disabled = false;
  const body = requestBody();
  speaker = new WsSpeaker({
    key: ui.key.value.trim(),
    config: { model_id: 'raaga-v1', voice: body.voice, language: body.language, sample_rate: body.sample_rate, speed: body.speed },
    onEvent: (kind, detail) => {
      logWs(kind, detail);
      if (kind === 'audio') document.body.dataset.wsAudio = 'yes';
    },
    onState: setWsState,
  });
  try {
    const result = await speaker.speak(sentences);
    if (result.state === 'cancelled') setStatus(ui.wsStatus, `Stopped: cancellation confirmed (${result.message?.characters_used ?? 0} credits, ${result.frames} frames received).`, 'ok');
    else setStatus(ui.wsStatus, `Done: ${sentences.length} sentences, ${result.frames} frames.`, 'ok');
  } catch (error) {
    setWsState('error');
    setStatus(ui.wsStatus, error.message, 'bad');
  } finally {
    ui.wsSpeak.disabled = false;
    ui.wsStop.disabled = true;
  }
});

ui.wsStop.addEventListener('click', () => speaker?.stop());

// ---- call simulator -----------------------------------------------------------------------------------

byId('call-run').addEventListener('click', async () => {
  const body = requestBody();
  const button = byId('call-run');
  button.disabled = true;
  document.body.dataset.call = 'running';
  const durationS = Number(byId('call-duration').value);
  setStatus(ui.callStatus, `Calling… (${durationS} s of simulated call)`);
  try {
    const call = await api.simulateCall({
      provider: byId('call-provider').value,
      voice: body.voice,
      language: body.language,
      greeting: body.text,
      caller_text: byId('call-caller-text').value,
      caller_at_ms: Math.round(Number(byId('call-barge-at').value) * 1000),
      duration_ms: Math.round(durationS * 1000),
    });
    drawCallTimeline(byId('call-timeline'), call);
    const s = call.summary;
    setStatus(
      ui.callStatus,
      `First audio after ${Math.round(s.first_media_in_ms ?? 0)} ms; ${s.marks_received} mark${s.marks_received === 1 ? '' : 's'} sent, ${s.marks_echoed} echoed; ` +
        `${s.clears} clear${s.clears === 1 ? '' : 's'}${s.barge_in_ms === null ? '' : ` (${Math.round(s.barge_in_ms)} ms after the caller started)`}` +
        `${s.resumes > 0 ? `, ${s.resumes} resumed (${Math.round(s.repeated_ms)} ms heard twice, ${Math.round(s.lost_ms)} ms lost)` : ''} on ${call.provider}.`,
      'ok',
    );
    document.body.dataset.call = 'done';
  } catch (error) {
    setStatus(ui.callStatus, describeError(error), 'bad');
    document.body.dataset.call = 'failed';
  } finally {
    button.disabled = false;
  }
});

if (ui.key.value) loadVoices();
