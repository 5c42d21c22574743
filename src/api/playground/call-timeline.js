// Draws a simulated call as SVG: what the caller heard (the bot's audio level, 20 ms per bar), when the caller
// spoke, the marks sent and echoed, each `clear` as a line across every lane, and how it ended: a hold that resumed
// (the bot re-sent the held audio) or a barge-in that cut the bot for good.

const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 880;
const LEFT = 130;
const LANES = [
  { key: 'heard', label: 'Caller hears (bot)', height: 56 },
  { key: 'caller', label: 'Caller speaks', height: 26 },
  { key: 'marks', label: 'Marks sent / echoed', height: 34 },
  { key: 'events', label: 'Stream events', height: 26 },
];
const COLORS = { heard: '#c45a00', caller: '#2a5db0', sent: '#7a3e9d', echoed: '#2f7d4f', cleared: '#9aa1ad', clear: '#b3261e', resumed: '#2f7d4f' };

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

export function drawCallTimeline(container, call) {
  const durationMs = Math.max(call.duration_ms, 1);
  const x = (ms) => LEFT + ((WIDTH - LEFT - 10) * Math.min(ms, durationMs)) / durationMs;
  let y = 10;
  const lanes = {};
  for (const lane of LANES) {
    lanes[lane.key] = { top: y, height: lane.height };
    y += lane.height + 10;
  }
  const height = y + 44;
  const svg = el('svg', { viewBox: `0 0 ${WIDTH} ${height}`, role: 'img', 'aria-label': 'Timeline of the simulated call' });
  svg.append(el('title', {}, 'Timeline of the simulated call'));

  for (const lane of LANES) {
    const { top, height: h } = lanes[lane.key];
    svg.append(el('rect', { x: LEFT, y: top, width: WIDTH - LEFT - 10, height: h, fill: '#faf9f7', stroke: '#e3e6ec' }));
    svg.append(el('text', { x: 4, y: top + h / 2 + 4 }, lane.label));
  }

  // What the caller heard: one bar per frame, height by level.
  const heard = lanes.heard;
  const barWidth = Math.max(1, x(call.frame_ms) - x(0));
  call.heard_levels.forEach((level, i) => {
    if (level <= 0.01) return;
    const h = Math.max(1, level * (heard.height - 4));
    svg.append(el('rect', { x: x(i * call.frame_ms), y: heard.top + heard.height - 2 - h, width: barWidth, height: h, fill: COLORS.heard }));
  });

  if (call.caller) {
    const lane = lanes.caller;
    svg.append(el('rect', { x: x(call.caller.start_ms), y: lane.top + 4, width: Math.max(2, x(call.caller.end_ms) - x(call.caller.start_ms)), height: lane.height - 8, rx: 4, fill: COLORS.caller }));
    // Inside the bar: the caller often talks until after the call ends.
    svg.append(el('text', { x: x(call.caller.start_ms) + 6, y: lane.top + lane.height / 2 + 4, fill: '#fff' }, call.caller.text ?? 'caller speech'));
  }

  const marks = lanes.marks;
  const events = lanes.events;
  // A clear followed by a replay was a hold that resumed; one without was a cut (or a hold that committed).
  const clears = call.events.filter((event) => event.kind === 'clear_received');
  const replays = call.events.filter((event) => event.kind === 'replay_received');
  const resumedClear = (clear) => {
    const next = clears.find((other) => other.at_ms > clear.at_ms)?.at_ms ?? Infinity;
    return replays.some((replay) => replay.at_ms >= clear.at_ms && replay.at_ms < next);
  };
  for (const event of call.events) {
    const at = x(event.at_ms);
    if (event.kind === 'mark_received') {
      svg.append(el('line', { x1: at, x2: at, y1: marks.top + 3, y2: marks.top + marks.height / 2, stroke: COLORS.sent, 'stroke-width': 2 }));
    } else if (event.kind === 'mark_echoed') {
      const cleared = (event.detail ?? '').includes('(cleared)');
      svg.append(el('line', { x1: at, x2: at, y1: marks.top + marks.height / 2, y2: marks.top + marks.height - 3, stroke: cleared ? COLORS.cleared : COLORS.echoed, 'stroke-width': 2 }));
    } else if (event.kind === 'clear_received') {
      svg.append(el('line', { x1: at, x2: at, y1: lanes.heard.top, y2: events.top + events.height, stroke: COLORS.clear, 'stroke-width': 2, 'stroke-dasharray': '4 3' }));
      svg.append(el('text', { x: at + 4, y: events.top + events.height / 2 + 4, fill: COLORS.clear }, resumedClear(event) ? 'hold' : 'clear (barge-in)'));
    } else if (event.kind === 'replay_received') {
      svg.append(el('line', { x1: at, x2: at, y1: lanes.heard.top, y2: events.top + events.height, stroke: COLORS.resumed, 'stroke-width': 2 }));
      svg.append(el('text', { x: at + 4, y: events.top + events.height / 2 + 4, fill: COLORS.resumed }, 'resumed'));
      svg.append(el('title', {}, event.detail ?? 'resumed'));
    } else if (event.kind === 'first_media_in') {
      svg.append(el('circle', { cx: at, cy: events.top + events.height / 2, r: 4, fill: COLORS.heard }));
      svg.append(el('text', { x: at + 6, y: events.top + events.height / 2 - 4 }, 'first audio'));
    } else if (event.kind === 'dtmf_sent') {
      svg.append(el('text', { x: at, y: lanes.caller.top + 12, fill: COLORS.caller }, `DTMF ${event.detail ?? ''}`));
    }
  }

  // Seconds along the bottom.
  const axisY = y + 4;
  for (let ms = 0; ms <= durationMs; ms += 1000) {
    svg.append(el('line', { x1: x(ms), x2: x(ms), y1: axisY - 6, y2: axisY, stroke: '#5b6475' }));
    svg.append(el('text', { x: x(ms) - 6, y: axisY + 14 }, `${ms / 1000}s`));
  }
  const legend = [
    ['mark sent', COLORS.sent],
    ['mark echoed (played)', COLORS.echoed],
    ['mark echoed by clear', COLORS.cleared],
  ];
  legend.forEach(([label, color], i) => {
    const lx = LEFT + i * 200;
    svg.append(el('rect', { x: lx, y: height - 8, width: 10, height: 4, fill: color }));
    svg.append(el('text', { x: lx + 14, y: height - 3 }, label));
  });
  container.replaceChildren(svg);
  return svg;
}
