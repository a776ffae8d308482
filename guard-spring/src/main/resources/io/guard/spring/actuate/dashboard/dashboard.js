// Guard dashboard. Reads the `guard` endpoint (a snapshot, polled) and `guardevents/stream` (live events), both
// relative to the actuator base path. Every history is a fixed-size ring, so the page's memory never grows.
'use strict';
(function () {
  const POLL_MS = 2000;          // snapshot period: rates, counters, backend
  const HISTORY_MS = 5 * 60 * 1000; // how far back the rate charts reach
  const RATE_SAMPLES = 200;      // points kept per chart: a poll every 2 s plus the points that events add
  const CALL_SECONDS = 60;       // one minute of calls per second, by outcome
  const TRANSITIONS_KEPT = 5;    // per breaker
  const LOG_KEPT = 50;           // the page-wide transition log
  const SEVERITY = { FORCED_OPEN: 5, OPEN: 5, HALF_OPEN: 4, METRICS_ONLY: 1, CLOSED: 1, DISABLED: 0 };

  const breakers = new Map();    // name -> breaker view model
  const limiters = new Map();    // name -> limiter view model
  const bulkheads = new Map();   // name -> bulkhead view model
  let fleetStates = null;        // with fleet-wide control: instance -> breaker -> state, as the instance last read
  let stream = null;
  let everConnected = false;
  let dirty = true;
  let leases = null;             // this instance's lease counts (/actuator/guard "leases"), null when nothing leases

  // ---- bounded histories -------------------------------------------------------------------------------------
  class Ring {
    constructor(size) { this.items = new Array(size); this.size = size; this.next = 0; this.count = 0; }
    push(v) { this.items[this.next] = v; this.next = (this.next + 1) % this.size; this.count = Math.min(this.count + 1, this.size); }
    values() {
      const out = [];
      for (let i = this.count; i > 0; i--) out.push(this.items[(this.next - i + this.size) % this.size]);
      return out;
    }
    last() { return this.count ? this.items[(this.next - 1 + this.size) % this.size] : undefined; }
  }

  /** Calls per second by outcome for the last CALL_SECONDS seconds, one slot per second. */
  class Seconds {
    constructor() { this.slots = []; for (let i = 0; i < CALL_SECONDS; i++) this.slots.push({ sec: -1, ok: 0, slow: 0, failed: 0, refused: 0 }); }
    add(sec, outcome) {
      const slot = this.slots[sec % CALL_SECONDS];
      if (slot.sec !== sec) { slot.sec = sec; slot.ok = slot.slow = slot.failed = slot.refused = 0; }
      slot[outcome]++;
    }
    series(now) {
      const out = [];
      for (let s = now - CALL_SECONDS + 1; s <= now; s++) {
        const slot = this.slots[((s % CALL_SECONDS) + CALL_SECONDS) % CALL_SECONDS];
        out.push(slot.sec === s ? slot : { ok: 0, slow: 0, failed: 0, refused: 0 });
      }
      return out;
    }
  }

  // ---- model ---------------------------------------------------------------------------------------------------
  function breaker(name) {
    let b = breakers.get(name);
    if (!b) {
      b = { name, state: 'CLOSED', openUntil: 0, failureRate: -1, slowCallRate: -1, config: {},
            failureRates: new Ring(RATE_SAMPLES), slowRates: new Ring(RATE_SAMPLES), calls: new Seconds(),
            transitions: [], reason: null };
      breakers.set(name, b);
    }
    return b;
  }

  function limiter(name) {
    let l = limiters.get(name);
    if (!l) {
      l = { name, policy: {}, backend: {}, stats: null, statsAt: 0,
            permitted: new Ring(RATE_SAMPLES), refused: new Ring(RATE_SAMPLES) };
      limiters.set(name, l);
    }
    return l;
  }

  function bulkhead(name) {
    let k = bulkheads.get(name);
    if (!k) {
      k = { name, kind: 'fixed', current: null, currentAt: 0,
            limits: new Ring(RATE_SAMPLES), inFlight: new Ring(RATE_SAMPLES), refused: new Ring(RATE_SAMPLES) };
      bulkheads.set(name, k);
    }
    return k;
  }

  function num(v, fallback) { return typeof v === 'number' && isFinite(v) ? v : fallback; }

  function applySnapshot(json, at) {
    fleetStates = json.fleet ? json.fleet.instances || {} : null;
    const seenB = new Set();
    for (const [name, d] of Object.entries(json.circuitBreakers || {})) {
      seenB.add(name);
      const b = breaker(name);
      const m = d.metrics || {};
      b.state = d.state || b.state;
      b.config = d.config || {};
      b.failureRate = num(m.failureRate, -1);
      b.slowCallRate = num(m.slowCallRate, -1);
      b.notPermitted = num(m.notPermittedCalls, 0);
      b.openUntil = at + num(d.remainingOpenTimeMs, 0);
      b.fleet = d.fleet || null;   // present with fleet-wide control: this instance and the fleet's last command
      b.failureRates.push({ t: at, v: b.failureRate });
      b.slowRates.push({ t: at, v: b.slowCallRate });
    }
    for (const name of [...breakers.keys()]) if (!seenB.has(name)) breakers.delete(name);
    const seenL = new Set();
    for (const [name, d] of Object.entries(json.rateLimiters || {})) {
      seenL.add(name);
      const l = limiter(name);
      l.policy = d.policy || {};
      l.backend = d.backend || {};
      l.lease = d.lease || null;
      const stats = d.stats || {};
      if (l.stats && at > l.statsAt) {
        const seconds = (at - l.statsAt) / 1000;
        l.permitted.push({ t: at, v: Math.max(0, num(stats.permitted, 0) - num(l.stats.permitted, 0)) / seconds });
        l.refused.push({ t: at, v: Math.max(0, num(stats.rejected, 0) - num(l.stats.rejected, 0)) / seconds });
      }
      l.stats = stats;
      l.statsAt = at;
    }
    for (const name of [...limiters.keys()]) if (!seenL.has(name)) limiters.delete(name);
    const seenK = new Set();
    for (const [name, d] of Object.entries(json.bulkheads || {})) {
      seenK.add(name);
      const k = bulkhead(name);
      k.kind = d.limit || 'fixed';
      k.limits.push({ t: at, v: num(d.maxConcurrentCalls, 0) });
      k.inFlight.push({ t: at, v: num(d.concurrentCalls, 0) });
      if (k.current && at > k.currentAt) {
        const seconds = (at - k.currentAt) / 1000;
        k.refused.push({ t: at, v: Math.max(0, num(d.refusedCalls, 0) - num(k.current.refusedCalls, 0)) / seconds });
      }
      k.current = d;
      k.currentAt = at;
    }
    for (const name of [...bulkheads.keys()]) if (!seenK.has(name)) bulkheads.delete(name);
    leases = json.leases || null;
    dirty = true;
  }

  function describeReason(b, from, to, evidence) {
    if (evidence) return evidence;
    if (to === 'HALF_OPEN' && from === 'OPEN') return 'wait in OPEN ended';
    if (to === 'CLOSED' && from === 'HALF_OPEN') return 'trial calls succeeded';
    if (to === 'FORCED_OPEN' || to === 'DISABLED' || to === 'METRICS_ONLY' || from === 'FORCED_OPEN') return 'set by an operator';
    return '';
  }

  function exceeded(e) {
    const d = e.details || {};
    const what = e.type === 'SLOW_CALL_RATE_EXCEEDED' ? 'slow-call rate' : 'failure rate';
    const rate = d.slowCallRate || d.failureRate || d.rate;
    return rate !== undefined ? `${what} ${fmtPct(Number(rate))} ≥ ${fmtPct(Number(d.threshold))}` : `${what} over its threshold`;
  }

  /** Records a transition (live or from history); returns its text. */
  function addTransition(e, announce) {
    const b = breaker(e.name);
    const d = e.details || {};
    const reason = describeReason(b, d.from, d.to, b.reason);
    b.reason = null;
    const t = { time: e.time, from: d.from, to: d.to, reason };
    b.transitions.unshift(t);
    b.transitions.length = Math.min(b.transitions.length, TRANSITIONS_KEPT);
    if (announce) {
      b.state = d.to || b.state;
      if (d.to === 'OPEN') b.openUntil = Date.now() + num(b.config.waitDurationInOpenStateMs, 0);
      log(e.name, t);
    }
    dirty = true;
  }

  function onEvent(e) {
    const sec = Math.floor(Date.now() / 1000);
    if (e.source === 'CIRCUIT_BREAKER') {
      const b = breaker(e.name);
      switch (e.type) {
        case 'SUCCESS': {
          const slowMs = num(b.config.slowCallDurationThresholdMs, Infinity);
          b.calls.add(sec, num(e.durationMs, 0) >= slowMs ? 'slow' : 'ok');
          break;
        }
        case 'IGNORED_ERROR': b.calls.add(sec, 'ok'); break;
        case 'ERROR': b.calls.add(sec, 'failed'); break;
        case 'NOT_PERMITTED': b.calls.add(sec, 'refused'); break;
        case 'FAILURE_RATE_EXCEEDED':
        case 'SLOW_CALL_RATE_EXCEEDED': {
          // The crossing itself is a point on the chart: a poll every 2 s could miss a window that opened at once.
          b.reason = exceeded(e);
          const d = e.details || {};
          const rate = Number(e.type === 'FAILURE_RATE_EXCEEDED' ? d.failureRate : d.slowCallRate);
          if (isFinite(rate)) (e.type === 'FAILURE_RATE_EXCEEDED' ? b.failureRates : b.slowRates).push({ t: Date.now(), v: rate });
          dirty = true;
          break;
        }
        case 'STATE_TRANSITION': addTransition(e, true); break;
        case 'RESET': b.state = 'CLOSED'; break;
        default: break;
      }
    }
    else if (e.source === 'RATE_LIMITER' && e.type === 'BACKEND_FAILURE') {
      const l = limiter(e.name);
      l.backend = Object.assign({}, l.backend, { status: 'DOWN', lastError: (e.details || {}).error || l.backend.lastError });
      dirty = true;
    }
  }

  // ---- data sources --------------------------------------------------------------------------------------------
  async function getJson(url) {
    const response = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) {
      const error = new Error(`${url} answered ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return response.json();
  }

  async function poll() {
    try {
      applySnapshot(await getJson('guard'), Date.now());
      problem(null);
    }
    catch (error) {
      problem(error.status === 404
        ? 'The guard endpoint is not exposed: add guard and guardevents to management.endpoints.web.exposure.include.'
        : `Cannot read the guard endpoint (${error.message}); retrying.`);
      setConnection('down', 'Application unreachable, retrying…');
    }
    finally {
      setTimeout(poll, POLL_MS);
    }
  }

  /** Seeds the per-breaker transitions (and the log) from the buffered history, oldest first. */
  async function loadHistory() {
    try {
      const json = await getJson('guardevents?type=STATE_TRANSITION,FAILURE_RATE_EXCEEDED,SLOW_CALL_RATE_EXCEEDED&limit=200');
      for (const b of breakers.values()) b.transitions = [];
      logList().replaceChildren();
      for (const e of (json.events || []).slice().reverse()) {
        if (e.source !== 'CIRCUIT_BREAKER') continue;
        if (e.type === 'STATE_TRANSITION') {
          addTransition(e, false);
          log(e.name, breaker(e.name).transitions[0], true);
        }
        else breaker(e.name).reason = exceeded(e);
      }
      for (const b of breakers.values()) b.reason = null;
    }
    catch (error) {
      // The history is a nicety; the live stream and the snapshot still work without it.
    }
  }

  function connect() {
    if (stream) stream.close();
    stream = new EventSource('guardevents/stream');
    stream.onopen = () => {
      setConnection('live', 'Live');
      // After a restart or a network drop the page may have missed events: read the truth again.
      getJson('guard').then(json => applySnapshot(json, Date.now())).catch(() => {});
      if (everConnected) loadHistory();
      everConnected = true;
    };
    stream.onmessage = message => {
      try { onEvent(JSON.parse(message.data)); } catch (ignored) { /* not an event */ }
    };
    stream.onerror = () => {
      if (stream.readyState === EventSource.CLOSED) {
        // The server refused (503: too many clients, 404: stream not exposed); EventSource gives up, we do not.
        setConnection('down', 'Live events unavailable, retrying…');
        setTimeout(connect, 5000);
      }
      else {
        setConnection('connecting', 'Reconnecting…');
      }
    };
  }

  // ---- rendering -----------------------------------------------------------------------------------------------
  const SVG = 'http://www.w3.org/2000/svg';

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v; else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  }

  function fmtPct(v) { return v < 0 || !isFinite(v) ? '–' : `${v.toFixed(v < 10 && v > 0 ? 1 : 0)}%`; }
  function fmtRate(v) { return v >= 10 ? v.toFixed(0) : v.toFixed(1); }
  function fmtTime(iso) {
    const d = new Date(iso);
    return isNaN(d) ? iso : d.toLocaleTimeString([], { hour12: false });
  }
  function fmtMs(ms) {
    if (ms < 1000) return `${Math.max(0, Math.ceil(ms / 100) / 10)} s`;
    const s = Math.ceil(ms / 1000);
    return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
  }

  function x(t, now, w) { return w - ((now - t) / HISTORY_MS) * w; }

  /** A rate (0..100, -1 = not enough calls) over the last 5 minutes, against its threshold. */
  function rateSpark(points, threshold, label, now) {
    const w = 120, h = 32;
    const node = svg('svg', { class: 'spark', viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': label });
    const y = v => h - 2 - (Math.min(100, v) / 100) * (h - 4);
    if (threshold > 0 && threshold <= 100) {
      node.append(svg('line', { class: 'threshold', x1: 0, x2: w, y1: y(threshold), y2: y(threshold) }));
    }
    let line = [];
    const flush = () => {
      if (line.length) {
        node.append(svg('polyline', { class: 'line', points: line.join(' ') }));
        const [cx, cy] = line[line.length - 1].split(',');   // a lone sample is a dot, not an invisible line
        node.append(svg('circle', { class: 'dot', cx, cy, r: 2 }));
      }
      line = [];
    };
    for (const p of points) {
      if (p.v < 0 || now - p.t > HISTORY_MS) { flush(); continue; }
      line.push(`${x(p.t, now, w).toFixed(1)},${y(p.v).toFixed(1)}`);
    }
    flush();
    return node;
  }

  /** Stacked bars of calls per second by outcome. */
  function callSpark(series, label) {
    const w = 120, h = 32;
    const node = svg('svg', { class: 'spark', viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': label });
    const max = Math.max(1, ...series.map(s => s.ok + s.slow + s.failed + s.refused));
    const bw = w / series.length;
    series.forEach((s, i) => {
      let top = h;
      for (const kind of ['ok', 'slow', 'failed', 'refused']) {
        if (!s[kind]) continue;
        const bh = (s[kind] / max) * (h - 2);
        top -= bh;
        node.append(svg('rect', { class: kind, x: (i * bw).toFixed(1), y: top.toFixed(1), width: Math.max(1, bw - 0.5).toFixed(1), height: bh.toFixed(1) }));
      }
    });
    return node;
  }

  /** Decisions per second over the last 5 minutes. */
  function valueSpark(points, label, now) {
    const w = 120, h = 32;
    const node = svg('svg', { class: 'spark', viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': label });
    const recent = points.filter(p => now - p.t <= HISTORY_MS);
    const max = Math.max(1, ...recent.map(p => p.v));
    const pts = recent.map(p => `${x(p.t, now, w).toFixed(1)},${(h - 2 - (p.v / max) * (h - 4)).toFixed(1)}`);
    if (pts.length) {
      node.append(svg('polyline', { class: 'line', points: pts.join(' ') }));
      const [cx, cy] = pts[pts.length - 1].split(',');
      node.append(svg('circle', { class: 'dot', cx, cy, r: 2 }));
    }
    return node;
  }

  function breakerTrouble(b) {
    const c = b.config;
    let score = (SEVERITY[b.state] ?? 1) * 10;
    if (b.failureRate >= 0 && c.failureRateThreshold && b.failureRate >= c.failureRateThreshold) score += 3;
    if (b.slowCallRate >= 0 && c.slowCallRateThreshold && b.slowCallRate >= c.slowCallRateThreshold) score += 3;
    if (b.failureRate > 0) score += 1;
    return score;
  }

  function limiterTrouble(l) {
    let score = l.backend.status && l.backend.status !== 'UP' ? 10 : 0;
    const refused = l.refused.last();
    if (refused && refused.v > 0) score += 5;
    if (l.stats && l.stats.errors > 0) score += 1;
    return score;
  }

  function bulkheadTrouble(k) {
    const d = k.current || {};
    const refused = k.refused.last();
    return (refused && refused.v > 0 ? 5 : 0) + (num(d.concurrentCalls, 0) >= num(d.maxConcurrentCalls, 1) ? 1 : 0);
  }

  function sorted(map, trouble) {
    return [...map.values()].sort((a, b) => trouble(b) - trouble(a) || a.name.localeCompare(b.name));
  }

  function matches(name) {
    const f = document.getElementById('filter').value.trim().toLowerCase();
    return !f || name.toLowerCase().includes(f);
  }

  function rateCell(kind, value, threshold, points, name, now) {
    const over = value >= 0 && threshold > 0 && value >= threshold;
    const text = `${fmtPct(value)} of ${fmtPct(threshold)}`;
    return el('td', {},
      el('div', { class: 'figure' },
        rateSpark(points, threshold, `${kind} of ${name} over the last 5 minutes`, now),
        el('span', { class: over ? 'value over' : 'value' }, text, over ? ' — over' : '')));
  }

  function breakerRow(b, now) {
    const c = b.config;
    const series = b.calls.series(Math.floor(now / 1000));
    const recent = series.slice(-6, -1);   // the last 5 complete seconds
    const avg = kind => recent.reduce((sum, s) => sum + s[kind], 0) / recent.length;
    const stateCell = el('td', { class: 'state-cell' },
      el('span', { class: `state state-${b.state}` }, b.state));
    if (b.state === 'OPEN') {
      stateCell.append(el('span', { class: 'sub remaining' }, `half-open in ${fmtMs(Math.max(0, b.openUntil - now))}`));
    }
    if (b.fleet) {
      const cmd = b.fleet.command;
      stateCell.append(el('span', { class: 'sub fleet' }, `on ${b.fleet.instance}`,
        cmd ? ` · fleet: ${cmd.state} by ${cmd.by}` : ''));
    }
    if (fleetStates) {
      const states = Object.entries(fleetStates).filter(([, s]) => s[b.name]).map(([i, s]) => `${i} ${s[b.name]}`);
      if (states.length) {
        stateCell.append(el('span', { class: 'sub fleet-states' }, states.join(' · ')));
      }
    }
    const transitions = el('ul', { class: 'transitions' }, ...b.transitions.slice(0, 3).map(t =>
      el('li', {}, el('time', { datetime: t.time }, fmtTime(t.time)), ` ${t.from} → ${t.to}`, t.reason ? ` (${t.reason})` : '')));
    return el('tr', { 'data-name': b.name, 'data-state': b.state },
      el('th', { scope: 'row' }, b.name, el('span', { class: 'sub' },
        `${c.slidingWindowType === 'TIME_BASED' ? 'last ' + c.slidingWindowSize + ' s' : 'last ' + c.slidingWindowSize + ' calls'}`)),
      stateCell,
      rateCell('failure rate', b.failureRate, num(c.failureRateThreshold, 0), b.failureRates.values(), b.name, now),
      rateCell('slow-call rate', b.slowCallRate, num(c.slowCallRateThreshold, 0), b.slowRates.values(), b.name, now),
      el('td', {}, el('div', { class: 'figure' },
        callSpark(series, `calls per second of ${b.name} over the last minute`),
        el('span', { class: 'legend' },
          el('b', {}, fmtRate(avg('ok'))), ' ok · ', el('b', {}, fmtRate(avg('slow'))), ' slow', el('br'),
          el('b', {}, fmtRate(avg('failed'))), ' failed · ', el('b', {}, fmtRate(avg('refused'))), ' refused'))),
      el('td', { class: 'transitions-cell' }, b.transitions.length ? transitions : el('span', { class: 'sub' }, 'none yet')));
  }

  function limiterRow(l, now) {
    const p = l.policy, be = l.backend;
    const permitted = (l.permitted.last() || { v: 0 }).v, refused = (l.refused.last() || { v: 0 }).v;
    const status = be.status || 'UP';
    const backend = el('td', {}, el('span', { class: `state state-${status === 'UP' ? 'UP' : 'DOWN'}` }, `${be.name || '?'} ${status}`));
    if (be.breakerState && be.breakerState !== 'CLOSED') backend.append(el('span', { class: 'sub' }, `backend breaker ${be.breakerState}`));
    if (status !== 'UP' && p.onBackendFailure) backend.append(el('span', { class: 'sub' }, `meanwhile: ${p.onBackendFailure}`));
    if (be.lastError) backend.append(el('span', { class: 'sub' }, be.lastError));
    const interval = num(p.intervalMs, 0);
    const per = interval % 1000 === 0 ? `${interval / 1000} s` : `${interval} ms`;
    return el('tr', { 'data-name': l.name },
      el('th', { scope: 'row' }, l.name),
      el('td', {}, el('div', { class: 'figure' }, valueSpark(l.permitted.values(), `permitted per second by ${l.name}`, now),
        el('span', { class: 'value' }, `${fmtRate(permitted)}/s`))),
      el('td', {}, el('div', { class: 'figure' }, valueSpark(l.refused.values(), `refused per second by ${l.name}`, now),
        el('span', { class: refused > 0 ? 'value over' : 'value' }, `${fmtRate(refused)}/s`))),
      backend,
      el('td', {}, `${p.rate ?? '?'} per ${per}`, el('span', { class: 'sub' },
        `${p.algorithm || ''}, ${(p.scope || '').toLowerCase()}, on backend failure ${p.onBackendFailure || '?'}`),
        el('span', { class: 'sub decides' }, l.lease ? `leased: ${l.lease === 'auto' ? 'auto-sized' : l.lease + ' permits'} per lease`
          : 'exact: every decision in the backend')));
  }

  function bulkheadRow(k, now) {
    const d = k.current || {};
    const limit = num(d.maxConcurrentCalls, 0), inFlight = num(d.concurrentCalls, 0);
    const refused = (k.refused.last() || { v: 0 }).v;
    return el('tr', { 'data-name': k.name, 'data-limit': k.kind },
      el('th', { scope: 'row' }, k.name, el('span', { class: 'sub' }, k.kind === 'fixed' ? 'fixed' : `adaptive, ${k.kind}`)),
      el('td', {}, el('div', { class: 'figure' }, valueSpark(k.limits.values(), `limit of ${k.name}`, now),
        el('span', { class: 'value limit' }, `${limit}`))),
      el('td', {}, el('div', { class: 'figure' }, valueSpark(k.inFlight.values(), `calls in flight in ${k.name}`, now),
        el('span', { class: inFlight >= limit && limit > 0 ? 'value over in-flight' : 'value in-flight' }, `${inFlight} of ${limit}`))),
      el('td', {}, el('div', { class: 'figure' }, valueSpark(k.refused.values(), `refused per second by ${k.name}`, now),
        el('span', { class: refused > 0 ? 'value over' : 'value' }, `${fmtRate(refused)}/s`),
        el('span', { class: 'sub' }, `${num(d.refusedCalls, 0)} since start`))));
  }

  function render() {
    const now = Date.now();
    const bs = sorted(breakers, breakerTrouble).filter(b => matches(b.name));
    document.querySelector('#breakers tbody').replaceChildren(...bs.map(b => breakerRow(b, now)));
    document.getElementById('no-breakers').hidden = bs.length > 0;
    document.getElementById('breaker-count').textContent = `(${bs.length} of ${breakers.size})`;
    const ls = sorted(limiters, limiterTrouble).filter(l => matches(l.name));
    document.querySelector('#limiters tbody').replaceChildren(...ls.map(l => limiterRow(l, now)));
    document.getElementById('no-limiters').hidden = ls.length > 0;
    document.getElementById('limiter-count').textContent = `(${ls.length} of ${limiters.size})`;
    const ks = sorted(bulkheads, bulkheadTrouble).filter(k => matches(k.name));
    document.querySelector('#bulkheads tbody').replaceChildren(...ks.map(k => bulkheadRow(k, now)));
    document.getElementById('no-bulkheads').hidden = ks.length > 0;
    document.getElementById('bulkhead-count').textContent = `(${ks.length} of ${bulkheads.size})`;
    const open = [...breakers.values()].filter(b => SEVERITY[b.state] >= 4).length;
    const down = [...limiters.values()].filter(l => l.backend.status && l.backend.status !== 'UP').length;
    document.getElementById('summary').textContent =
      `${open} of ${breakers.size} breakers open or half-open · ${down} of ${limiters.size} limit backends down`;
    document.getElementById('leases').textContent = leases
      ? `Leases of this instance: ${num(leases.permitsHeld, 0)} permits held now, ${num(leases.keys, 0)} keys tracked for leasing; `
        + `${num(leases.leasesTaken, 0)} leases taken, ${num(leases.permitsReturned, 0)} unused permits given back, `
        + `${num(leases.permitsExpired, 0)} never given back, since start-up`
      : '';
    document.getElementById('leases').hidden = !leases;
    dirty = false;
  }

  function logList() { return document.getElementById('log'); }

  function log(name, t, history) {
    const list = logList();
    list.prepend(el('li', { class: history ? 'history' : 'live' },
      el('time', { datetime: t.time }, fmtTime(t.time)), ` ${name}: ${t.from} → ${t.to}`, t.reason ? ` (${t.reason})` : ''));
    while (list.children.length > LOG_KEPT) list.lastElementChild.remove();
  }

  function setConnection(kind, text) {
    const node = document.getElementById('connection');
    node.className = `connection ${kind}`;
    node.textContent = text;
  }

  function problem(text) {
    const node = document.getElementById('problem');
    node.hidden = !text;
    node.textContent = text || '';
  }

  document.getElementById('filter').addEventListener('input', () => render());
  // Countdowns and per-second bars move every second; bursts of events are drawn at most once a second.
  setInterval(() => { if (dirty || breakers.size) render(); }, 1000);

  (async () => {
    try { applySnapshot(await getJson('guard'), Date.now()); } catch (ignored) { /* poll() reports it */ }
    await loadHistory();
    render();
    connect();
    setTimeout(poll, POLL_MS);
  })();
})();
