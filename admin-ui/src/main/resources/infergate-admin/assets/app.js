// Infergate dashboard. Plain JavaScript, no build step: everything the page needs comes from the gateway's jar.
// Paths are relative to the page's <base>, which the gateway sets to its own /admin/.
'use strict';

(() => {
  const DECISIONS_KEPT = 200;
  const state = {
    config: null,
    snapshot: null,
    decisions: new Map(), // sequence -> decision
    selectedDecision: null,
    history: new Map(), // "pool/endpoint" -> {seconds: [], waitingRequests: [], kvCacheUsage: [], picksPerSecond: []}
    historySeconds: 300,
    cards: new Map(), // "pool/endpoint" -> card elements
    whatIfTimer: null,
    runtimeChanges: { enabled: false, changes: [] },
    replay: { loaded: false, captures: [], maxChoices: 4, run: null, pollTimer: null },
  };

  // ---- helpers -------------------------------------------------------------------------------------------------

  const $ = (selector, root = document) => root.querySelector(selector);

  function el(tag, attributes = {}, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'class') element.className = value;
      else if (name === 'text') element.textContent = value;
      else if (name.startsWith('data-')) element.setAttribute(name, value);
      else element[name] = value;
    }
    for (const child of children) {
      if (child !== null && child !== undefined) element.append(child);
    }
    return element;
  }

  async function getJson(path) {
    const response = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    const body = await response.json();
    if (!response.ok) {
      throw new Error(body && body.error ? body.error.message : `${path}: HTTP ${response.status}`);
    }
    return body;
  }

  async function postJson(path, body) {
    // the header proves the request comes from this page (the management port's CSRF rule)
    const response = await fetch(path, { method: 'POST', credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-Infergate-Dashboard': '1' },
      body: JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok) {
      throw new Error(answer && answer.error ? answer.error.message : `${path}: HTTP ${response.status}`);
    }
    return answer;
  }

  const percent = (fraction) => `${(fraction * 100).toFixed(fraction === 0 ? 0 : fraction < 0.01 ? 2 : fraction < 0.1 ? 1 : 0)}%`;
  const score = (value) => (value === null || value === undefined ? '–' : value.toFixed(3));
  const shortTime = (iso) => iso.substring(11, 23);
  const fixed = (value, digits) => (Number.isInteger(value) ? String(value) : value.toFixed(digits));

  // ---- views ---------------------------------------------------------------------------------------------------

  function showView() {
    const name = (location.hash || '#pool').substring(1);
    const known = ['pool', 'decisions', 'what-if', 'replay', 'config', 'usage'].includes(name) ? name : 'pool';
    for (const view of document.querySelectorAll('.view')) {
      view.hidden = view.id !== `view-${known}`;
    }
    for (const tab of document.querySelectorAll('#tabs a')) {
      tab.classList.toggle('active', tab.dataset.view === known);
    }
    if (known === 'what-if') scheduleWhatIf(0);
    if (known === 'replay') openReplay();
    if (known === 'usage') loadUsage();
  }

  // ---- pool view -----------------------------------------------------------------------------------------------

  function figure(label, field) {
    return el('div', { class: 'figure' }, el('span', { class: 'label', text: label }),
      el('span', { class: 'value', 'data-field': field, text: '–' }));
  }

  function chart(label, field) {
    const canvas = el('canvas', { 'data-chart': field, width: 120, height: 34 });
    return el('div', { class: 'chart' },
      el('div', { class: 'label' }, el('span', { text: label }), el('span', { 'data-chart-value': field, text: '' })),
      canvas);
  }

  function createCard(poolName, endpointId) {
    const card = el('article', { class: 'endpoint-card', 'data-endpoint': endpointId, 'data-pool': poolName },
      el('div', { class: 'card-head' },
        el('h3', { class: 'card-title', text: endpointId }),
        el('div', { class: 'badges' })),
      el('div', { class: 'figures' },
        figure('waiting', 'waiting'),
        figure('running', 'running'),
        figure('KV cache', 'kv'),
        figure('in flight', 'inflight'),
        figure('in-flight tokens', 'tokens'),
        figure('picks, last min', 'picks')),
      el('div', { class: 'share', title: 'share of the pool\'s picks in the last minute' }, el('div')),
      el('div', { class: 'adapters', 'data-field': 'adapters' }),
      el('div', { class: 'charts' },
        chart('queue', 'waitingRequests'),
        chart('KV use', 'kvCacheUsage'),
        chart('picks/s', 'picksPerSecond')));
    return card;
  }

  function poolSection(pool) {
    let section = document.querySelector(`section.pool[data-pool="${CSS.escape(pool.name)}"]`);
    if (!section) {
      section = el('section', { class: 'pool', 'data-pool': pool.name },
        el('div', { class: 'pool-head' }, el('h2', { text: `Pool ${pool.name}` }), el('span', { class: 'pool-meta' })),
        el('div', { class: 'cards' }));
      $('#pools').append(section);
    }
    $('.pool-meta', section).textContent =
      `${pool.engine} · profile ${pool.profile} · ${pool.failureMode} · ${pool.endpoints.length} endpoints`
      + (pool.tokenCounts === 'exact' ? ` · tokens exact (${pool.tokenizer})`
        : ' · tokens estimated (characters / 4: no tokenizer)')
      + (pool.retiring ? ' · retiring (removed from the configuration, draining)' : '');
    section.classList.toggle('retiring', !!pool.retiring);
    return section;
  }

  function badge(text, kind) {
    return el('span', { class: `badge ${kind}`, text });
  }

  function renderPools(snapshot) {
    const seen = new Set();
    const pools = new Set(snapshot.pools.map((pool) => pool.name));
    for (const section of document.querySelectorAll('section.pool')) {
      if (!pools.has(section.dataset.pool)) section.remove();
    }
    for (const pool of snapshot.pools) {
      const section = poolSection(pool);
      const cards = $('.cards', section);
      for (const endpoint of pool.endpoints) {
        const key = `${pool.name}/${endpoint.id}`;
        seen.add(key);
        let card = state.cards.get(key);
        if (!card) {
          card = createCard(pool.name, endpoint.id);
          state.cards.set(key, card);
          cards.append(card);
        }
        updateCard(card, key, endpoint);
      }
    }
    for (const [key, card] of state.cards) {
      if (!seen.has(key)) {
        card.remove();
        state.cards.delete(key);
      }
    }
  }

  function updateCard(card, key, endpoint) {
    const badges = $('.badges', card);
    const shown = [
      endpoint.ready ? badge('ready', 'good') : badge('not ready', 'bad'),
      endpoint.stale ? badge('stale', 'warn') : badge('fresh', 'good'),
    ];
    if (endpoint.circuit) shown.push(badge(`circuit ${endpoint.circuit}`, endpoint.circuit === 'closed' ? 'good' : 'bad'));
    badges.replaceChildren(...shown);
    const metrics = endpoint.metrics;
    const set = (field, text) => { $(`[data-field="${field}"]`, card).textContent = text; };
    set('waiting', metrics ? metrics.waitingRequests : '–');
    set('running', metrics ? metrics.runningRequests : '–');
    set('kv', metrics ? percent(metrics.kvCacheUsage) : '–');
    set('inflight', endpoint.inFlightRequests);
    set('tokens', endpoint.inFlightTokens);
    set('picks', `${endpoint.picksLastMinute} (${percent(endpoint.pickShareLastMinute)})`);
    $('.share > div', card).style.width = percent(endpoint.pickShareLastMinute);
    const adapters = [];
    if (metrics && metrics.maxLoras > 0) adapters.push(`LoRA slots ${metrics.maxLoras}`);
    if (metrics && metrics.runningAdapters.length) adapters.push(`running ${metrics.runningAdapters.join(', ')}`);
    if (metrics && metrics.waitingAdapters.length) adapters.push(`waiting ${metrics.waitingAdapters.join(', ')}`);
    set('adapters', adapters.length ? adapters.join(' · ') : 'no adapter active');
    if (endpoint.sample) appendSample(key, endpoint.sample);
    drawCharts(card, key);
  }

  function appendSample(key, sample) {
    let series = state.history.get(key);
    if (!series) {
      series = { seconds: [], waitingRequests: [], kvCacheUsage: [], picksPerSecond: [] };
      state.history.set(key, series);
    }
    const last = series.seconds[series.seconds.length - 1];
    if (last !== undefined && sample.second <= last) return;
    series.seconds.push(sample.second);
    series.waitingRequests.push(sample.waitingRequests ?? null);
    series.kvCacheUsage.push(sample.kvCacheUsage ?? null);
    series.picksPerSecond.push(sample.picksPerSecond);
    while (series.seconds.length && series.seconds[0] <= sample.second - state.historySeconds) {
      for (const values of Object.values(series)) values.shift();
    }
  }

  function drawCharts(card, key) {
    const series = state.history.get(key);
    for (const canvas of card.querySelectorAll('canvas[data-chart]')) {
      const field = canvas.dataset.chart;
      const values = series ? series[field] : [];
      const latest = values.length ? values[values.length - 1] : null;
      const label = $(`[data-chart-value="${field}"]`, card);
      label.textContent = latest === null ? '' : (field === 'kvCacheUsage' ? percent(latest) : fixed(latest, 1));
      sparkline(canvas, series ? series.seconds : [], values, field === 'kvCacheUsage' ? 1 : null);
    }
  }

  function sparkline(canvas, seconds, values, fixedMax) {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(60, canvas.clientWidth) * ratio;
    const height = Math.max(20, canvas.clientHeight) * ratio;
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const context = canvas.getContext('2d');
    context.clearRect(0, 0, width, height);
    if (!seconds.length) return;
    let max = fixedMax;
    if (max === null) {
      max = 1;
      for (const value of values) if (value !== null && value > max) max = value;
    }
    const end = seconds[seconds.length - 1];
    const start = end - state.historySeconds + 1;
    const x = (second) => ((second - start) / (state.historySeconds - 1)) * (width - 2) + 1;
    const y = (value) => height - 2 - (value / max) * (height - 4);
    context.lineWidth = 1.5 * ratio;
    context.strokeStyle = '#1f6feb';
    context.fillStyle = 'rgba(31, 111, 235, 0.12)';
    context.beginPath();
    let drawing = false;
    let firstX = 0;
    for (let i = 0; i < seconds.length; i++) {
      const value = values[i];
      const gap = i > 0 && seconds[i] - seconds[i - 1] > 2;
      if (value === null || gap) {
        drawing = false;
        if (value === null) continue;
      }
      if (!drawing) {
        context.moveTo(x(seconds[i]), y(value));
        firstX = x(seconds[i]);
        drawing = true;
      }
      else {
        context.lineTo(x(seconds[i]), y(value));
      }
    }
    context.stroke();
    if (drawing) {
      context.lineTo(x(end), height);
      context.lineTo(firstX, height);
      context.closePath();
      context.fill();
    }
  }

  // ---- decisions view ------------------------------------------------------------------------------------------

  function addDecisions(decisions, fresh) {
    const added = [];
    for (const decision of decisions) {
      if (!state.decisions.has(decision.sequence)) {
        state.decisions.set(decision.sequence, decision);
        added.push(decision);
      }
    }
    if (!added.length) return;
    const sequences = [...state.decisions.keys()].sort((a, b) => b - a);
    for (const sequence of sequences.slice(DECISIONS_KEPT)) state.decisions.delete(sequence);
    renderDecisionList(added, fresh);
  }

  // Rows are created once per decision and kept, so a row being read or clicked is never replaced under it.
  function renderDecisionList(added, fresh) {
    const body = $('#decision-list tbody');
    const rows = new Map([...body.children].map((row) => [Number(row.dataset.sequence), row]));
    for (const decision of added) {
      rows.set(decision.sequence, decisionRow(decision, fresh));
    }
    for (const [sequence, row] of rows) {
      if (!state.decisions.has(sequence)) {
        row.remove();
        rows.delete(sequence);
      }
    }
    const ordered = [...rows.keys()].sort((a, b) => b - a).map((sequence) => rows.get(sequence));
    ordered.forEach((row, index) => {
      if (body.children[index] !== row) body.insertBefore(row, body.children[index] || null);
    });
    $('#decisions-empty').hidden = ordered.length > 0;
  }

  function decisionRow(decision, fresh) {
    return el('tr', {
      class: `decision-row${fresh ? ' fresh' : ''}`,
      'data-sequence': decision.sequence,
    },
    el('td', { class: 'mono', text: shortTime(decision.time) }),
    el('td', { text: decision.pool }),
    el('td', { text: decision.adapter ? `${decision.model} (${decision.adapter})` : decision.model }),
    el('td', { class: 'mono', text: decision.chosen || '–' }),
    el('td', { class: `outcome-${decision.outcome}`, text: decision.outcome }),
    el('td', { text: decision.via || '–' }),
    el('td', { class: 'num', text: decision.candidateCount }),
    el('td', { class: 'num', text: decision.durationMicros.toFixed(0) }));
  }

  function openDecision(sequence) {
    const decision = state.decisions.get(sequence);
    if (!decision) return;
    state.selectedDecision = sequence;
    for (const row of document.querySelectorAll('tr.decision-row')) {
      row.classList.toggle('selected', Number(row.dataset.sequence) === sequence);
    }
    const scorers = Object.keys(decision.weights || {});
    const meta = el('dl', { class: 'detail-meta' });
    const add = (term, value) => meta.append(el('dt', { text: term }), el('dd', { text: value }));
    add('time', decision.time);
    add('pool', decision.pool);
    add('model', decision.adapter ? `${decision.model}, adapter ${decision.adapter}` : decision.model);
    add('profile', decision.profile || '–');
    add('picker', decision.picker || '–');
    add('outcome', decision.outcome);
    add('via', decision.via || '–');
    add('decided in', `${decision.durationMicros.toFixed(1)} µs`);
    const usage = decision.usage;
    add('tokens', usage ? `${usage.inputTokens.toLocaleString()} in (${usage.cachedInputTokens.toLocaleString()} cached), `
      + `${usage.outputTokens.toLocaleString()} out` : 'until the response ends');
    add('cost', usage ? `${money(usage.cost)}${usage.currency ? ` ${usage.currency}` : ''}` : 'until the response ends');

    const head = el('tr', {}, el('th', { text: 'endpoint' }),
      ...scorers.map((name) => el('th', { class: 'num', text: `${name} ×${fixed(decision.weights[name], 2)}` })),
      el('th', { class: 'num', text: 'total' }), el('th'));
    const candidates = [...decision.scores].sort((a, b) => b.total - a.total);
    const rows = candidates.map((candidate) => {
      const chosen = candidate.endpoint === decision.chosen;
      return el('tr', { class: chosen ? 'chosen' : '', 'data-endpoint': candidate.endpoint },
        el('td', { class: 'mono', text: candidate.endpoint }),
        ...scorers.map((name) => el('td', { class: 'num', text: score(candidate.scores[name]) })),
        el('td', { class: 'num', text: score(candidate.total) }),
        el('td', { class: 'pick-mark', text: chosen ? '◀ picked' : '' }));
    });
    const detail = $('#decision-detail');
    const parts = [el('h2', { text: 'Why this endpoint' }), meta];
    if (rows.length) {
      parts.push(el('table', { class: 'list scores' }, el('thead', {}, head), el('tbody', {}, ...rows)));
      parts.push(el('p', { class: 'hint', text: 'Each scorer\'s raw score in [0,1]; total = Σ(weight·score) / Σweight.' }));
    }
    else {
      parts.push(el('p', { class: 'empty', text: 'No candidate was scored in this decision.' }));
    }
    parts.push(el('h3', { text: 'Removed by filters' }));
    if (decision.filteredOut && decision.filteredOut.length) {
      parts.push(el('table', { class: 'list filtered' },
        el('thead', {}, el('tr', {}, el('th', { text: 'endpoint' }), el('th', { text: 'filter' }))),
        el('tbody', {}, ...decision.filteredOut.map((removed) => el('tr', {},
          el('td', { class: 'mono', text: removed.endpoint }), el('td', { text: removed.filter }))))));
    }
    else {
      parts.push(el('p', { class: 'empty', text: 'No filter removed an endpoint.' }));
    }
    detail.replaceChildren(...parts);
    if (!usage) refreshDecision(sequence);
  }

  /** A decision's request may have ended since its record arrived: its usage and cost are in the server's copy. */
  async function refreshDecision(sequence) {
    const decisions = await getJson('api/decisions').catch(() => []);
    const fresh = decisions.find((decision) => decision.sequence === sequence);
    if (fresh && fresh.usage && state.selectedDecision === sequence) {
      state.decisions.set(sequence, fresh);
      openDecision(sequence);
    }
  }

  // ---- what-if view --------------------------------------------------------------------------------------------

  function setUpWhatIf() {
    const select = $('#whatif-profile');
    const profiles = state.config.profiles;
    const inUse = new Set(Object.values(state.config.poolProfiles));
    const names = Object.keys(profiles).filter((name) => Object.keys(profiles[name].weights).length > 0);
    names.sort((a, b) => (inUse.has(b) - inUse.has(a)) || a.localeCompare(b));
    select.replaceChildren(...names.map((name) =>
      el('option', { value: name, text: inUse.has(name) ? `${name} (in use)` : name })));
    select.addEventListener('change', () => { renderWeightInputs(); scheduleWhatIf(0); });
    $('#whatif-rerun').addEventListener('click', () => scheduleWhatIf(0));
    $('#whatif-apply').hidden = !state.runtimeChanges.enabled;
    $('#whatif-apply-button').addEventListener('click', applyWeights);
    $('#runtime-changes tbody').addEventListener('click', (event) => {
      const button = event.target.closest('button[data-revert]');
      if (button) revertChange(Number(button.dataset.revert));
    });
    renderWeightInputs();
    renderRuntimeChanges();
  }

  // ---- runtime changes: apply the what-if weights, revert -------------------------------------------------------

  const weightList = (weights) => Object.entries(weights).map(([scorer, weight]) => `${scorer} ${fixed(weight, 2)}`).join(', ');

  async function applyWeights() {
    const name = $('#whatif-profile').value;
    const profile = state.config.profiles[name];
    if (!profile) return;
    const weights = {};
    for (const input of document.querySelectorAll('#whatif-weights input[data-scorer]')) {
      if (input.value !== '') weights[input.dataset.scorer] = Number(input.value);
    }
    const pools = Object.entries(state.config.poolProfiles).filter(([, p]) => p === name).map(([pool]) => pool);
    const question = `Change the running profile ${name}`
      + (pools.length ? ` (pools ${pools.join(', ')})` : ' (no pool uses it)')
      + `?\n\nbefore: ${weightList(profile.weights)}\nafter:  ${weightList({ ...profile.weights, ...weights })}`
      + '\n\nNew requests use it at once; the change is logged and can be reverted.';
    if (!window.confirm(question)) return;
    await runtimeChange(() => postJson(`api/profiles/${encodeURIComponent(name)}/weights`, { weights }));
  }

  async function revertChange(id) {
    await runtimeChange(() => postJson(`api/changes/${id}/revert`, {}));
  }

  async function runtimeChange(send) {
    const status = $('#whatif-apply-status');
    try {
      const change = await send();
      status.textContent = `Change #${change.id} applied to ${change.profile}.`;
      state.config = await getJson('api/config');
      renderProfiles();
      renderWeightInputs();
      state.runtimeChanges = await getJson('api/changes');
      renderRuntimeChanges();
      scheduleWhatIf(0);
    }
    catch (error) {
      status.textContent = `Not applied: ${error.message}`;
    }
  }

  function renderRuntimeChanges() {
    const { enabled, changes } = state.runtimeChanges;
    $('#runtime-changes-section').hidden = !enabled && changes.length === 0;
    $('#runtime-changes tbody').replaceChildren(...changes.map((change) => el('tr', { 'data-change': change.id },
      el('td', { class: 'num', text: change.reverts ? `${change.id} (reverts #${change.reverts})` : String(change.id) }),
      el('td', { class: 'mono', text: change.time }),
      el('td', { text: change.by }),
      el('td', { text: change.profile }),
      el('td', { class: 'mono', text: weightList(change.before) }),
      el('td', { class: 'mono', text: weightList(change.after) }),
      el('td', {}, enabled ? el('button', { type: 'button', 'data-revert': change.id, text: 'Revert' }) : null))));
  }

  function renderWeightInputs() {
    const profile = state.config.profiles[$('#whatif-profile').value];
    const container = $('#whatif-weights');
    if (!profile) {
      container.replaceChildren(el('p', { class: 'empty', text: 'No profile has scorers.' }));
      return;
    }
    const rows = Object.entries(profile.weights).map(([scorer, weight]) => {
      const number = el('input', { type: 'number', min: 0, step: 0.5, value: weight, 'data-scorer': scorer });
      const range = el('input', { type: 'range', min: 0, max: Math.max(10, weight * 2), step: 0.5, value: weight });
      range.addEventListener('input', () => { number.value = range.value; scheduleWhatIf(250); });
      number.addEventListener('input', () => { range.value = number.value; scheduleWhatIf(250); });
      return el('div', { class: 'weight-row' }, el('span', { class: 'mono', text: scorer }), range, number);
    });
    container.replaceChildren(...rows);
    $('#whatif-picker').textContent = profile.pickerReadsTotals
      ? `Picker ${profile.picker}: ${pickerMeaning(profile.picker)}`
      : `Picker ${profile.picker} does not read the weighted totals: no weights change its picks.`;
  }

  function pickerMeaning(picker) {
    if (picker === 'max-score') {
      return 'picks the highest total, so a pick changes when the recorded endpoint no longer has it; a tie for the best is a draw.';
    }
    return 'picks at random from the totals, so figures are expected values, next to what its own chance already moves at the recorded weights.';
  }

  function scheduleWhatIf(delayMillis) {
    if (!state.config) return;
    clearTimeout(state.whatIfTimer);
    state.whatIfTimer = setTimeout(runWhatIf, delayMillis);
  }

  async function runWhatIf() {
    const profile = $('#whatif-profile').value;
    if (!profile) return;
    const query = new URLSearchParams({ profile });
    for (const input of document.querySelectorAll('#whatif-weights input[data-scorer]')) {
      if (input.value !== '') query.append(`weight.${input.dataset.scorer}`, input.value);
    }
    try {
      renderWhatIf(await getJson(`api/what-if?${query}`));
    }
    catch (error) {
      $('#whatif-summary').replaceChildren(el('p', { class: 'empty', text: error.message }));
    }
  }

  function renderWhatIf(report) {
    const summary = $('#whatif-summary');
    if (report.notReplayable) {
      summary.replaceChildren(el('p', { class: 'empty', text: report.notReplayable }));
    }
    else if (report.considered === 0) {
      summary.replaceChildren(el('p', { class: 'empty',
        text: `No recorded decision of profile ${report.profile} yet. Send requests to a pool that uses it.` }));
    }
    else {
      const deterministic = report.expectedChangedAtRecordedWeights === 0 || report.picker === 'max-score';
      const parts = [
        el('div', { class: `summary-figure${report.changed > 0 ? ' changed' : ''}`, id: 'whatif-changed',
          'data-changed': report.changed, text: `${report.changed} of ${report.considered}` }),
        el('p', { text: `recorded picks of profile ${report.profile} would certainly go to another endpoint.` }),
      ];
      if (deterministic) {
        const drawn = report.expectedChanged - report.changed;
        if (drawn > 0.0001) {
          parts.push(el('p', { class: 'hint',
            text: `Ties for the best total leave ${drawn.toFixed(1)} more picks to chance (expected).` }));
        }
      }
      else {
        parts.push(el('p', { class: 'hint', text: `Expected to move: ${report.expectedChanged.toFixed(1)}; `
          + `at the recorded weights the picker's own chance already moves ${report.expectedChangedAtRecordedWeights.toFixed(1)}.` }));
      }
      summary.replaceChildren(...parts);
    }
    const most = Math.max(1, ...report.endpoints.map((e) => Math.max(e.recorded, e.whatIf)));
    $('#whatif-endpoints tbody').replaceChildren(...report.endpoints.map((endpoint) => {
      const bar = el('div', { class: 'bar' }, el('div'));
      bar.firstChild.style.width = `${(endpoint.whatIf / most) * 100}%`;
      return el('tr', { 'data-endpoint': endpoint.endpoint }, el('td', { class: 'mono', text: endpoint.endpoint }),
        el('td', { class: 'num', text: endpoint.recorded }),
        el('td', { class: 'num', text: fixed(endpoint.whatIf, 1) }), el('td', {}, bar));
    }));
    $('#whatif-changes tbody').replaceChildren(...report.changes.slice(0, 100).map((change) => el('tr', {},
      el('td', { class: 'mono', text: shortTime(change.time) }),
      el('td', { text: change.model }),
      el('td', { class: 'mono', text: change.recorded }),
      el('td', { class: 'mono', text: change.whatIf.join(' or ') }))));
  }

  // ---- replay: what-if over captured traffic ---------------------------------------------------------------------

  const REPLAY_ENDED = ['done', 'failed', 'cancelled'];

  // datetime-local inputs hold local time to the second
  function localInputValue(epochMillis) {
    const date = new Date(epochMillis);
    const pad = (n) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:`
      + `${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  }

  const localTime = (epochMillis) => (epochMillis === null || epochMillis === undefined ? '–'
    : new Date(epochMillis).toLocaleString());

  function bytes(size) {
    if (size < 1024) return `${size} B`;
    if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
    return `${(size / 1024 / 1024).toFixed(1)} MB`;
  }

  // a window covering [first, last] arrivals: from the first's second to past the last's
  function setWindow(firstMs, lastMs) {
    $('#replay-from').value = firstMs === null ? '' : localInputValue(Math.floor(firstMs / 1000) * 1000);
    $('#replay-to').value = lastMs === null ? '' : localInputValue((Math.floor(lastMs / 1000) + 1) * 1000);
  }

  function wholeCaptureWindow() {
    const spans = state.replay.captures.filter((file) => file.routedRecords > 0 && file.firstArrivalMs !== undefined);
    if (!spans.length) {
      setWindow(null, null);
      return;
    }
    setWindow(Math.min(...spans.map((file) => file.firstArrivalMs)), Math.max(...spans.map((file) => file.lastArrivalMs)));
  }

  async function openReplay() {
    if (state.replay.loaded) return;
    state.replay.loaded = true;
    $('#replay-unavailable').hidden = state.config.replay;
    if (!state.config.replay) return;
    await loadCaptures(true);
    if (!$('#replay-available').hidden) {
      const runs = await getJson('api/replay/runs').catch(() => []);
      if (runs.length) showRun(runs[0]);
    }
  }

  async function loadCaptures(setTheWindow) {
    let answer;
    $('#replay-available').hidden = false;
    try {
      answer = await getJson('api/replay/captures');
    }
    catch (error) {
      $('#replay-status').textContent = error.message;
      return;
    }
    state.replay.captures = answer.captures;
    state.replay.maxChoices = answer.maxChoices;
    $('#replay-max-requests').textContent = answer.maxRequests.toLocaleString();
    $('#replay-max-choices').textContent = answer.maxChoices;
    $('#replay-captures tbody').replaceChildren(...answer.captures.map((file) => el('tr', {
      class: 'capture-row', 'data-file': file.name,
      title: file.complete ? '' : 'being written (or cut short): its records so far',
    },
    el('td', { class: 'mono', text: file.complete ? file.name : `${file.name} (open)` }),
    el('td', { text: localTime(file.firstArrivalMs) }),
    el('td', { text: localTime(file.lastArrivalMs) }),
    el('td', { class: 'num', text: `${file.routedRecords} of ${file.records}` }),
    el('td', { class: 'num', text: bytes(file.sizeBytes) }))));
    if (!answer.captures.length) {
      $('#replay-status').textContent = 'The capture has no file yet: send traffic to the gateway first.';
    }
    if (setTheWindow) wholeCaptureWindow();
    if (!$('#replay-choices').children.length) {
      addChoice(inUseProfile());
      const other = Object.keys(state.config.profiles).find((name) => name !== inUseProfile()
        && Object.keys(state.config.profiles[name].weights).length > 0);
      if (other) addChoice(other);
    }
  }

  function inUseProfile() {
    const inUse = Object.values(state.config.poolProfiles);
    return inUse.length ? inUse[0] : Object.keys(state.config.profiles)[0];
  }

  function addChoice(profileName) {
    const container = $('#replay-choices');
    if (container.children.length >= state.replay.maxChoices) return;
    const select = el('select', { class: 'replay-profile' }, ...Object.keys(state.config.profiles).sort().map((name) =>
      el('option', { value: name, text: name, selected: name === profileName })));
    const weights = el('div', { class: 'replay-weights' });
    const remove = el('button', { type: 'button', class: 'replay-remove', text: 'Remove' });
    const choice = el('div', { class: 'replay-choice' },
      el('div', { class: 'replay-choice-head' }, select, remove), weights);
    const renderWeights = () => {
      const profile = state.config.profiles[select.value];
      weights.replaceChildren(...Object.entries(profile.weights).map(([scorer, weight]) => el('label', { class: 'weight' },
        el('span', { class: 'mono', text: scorer }),
        el('input', { type: 'number', min: 0, step: 0.5, value: weight, 'data-scorer': scorer }))));
      if (!Object.keys(profile.weights).length) {
        weights.append(el('span', { class: 'hint', text: `${profile.picker} picker, no weighted scorer` }));
      }
    };
    select.addEventListener('change', renderWeights);
    remove.addEventListener('click', () => { choice.remove(); updateChoiceButtons(); });
    renderWeights();
    container.append(choice);
    updateChoiceButtons();
  }

  function updateChoiceButtons() {
    const count = $('#replay-choices').children.length;
    $('#replay-add-choice').disabled = count >= state.replay.maxChoices;
    $('#replay-start').disabled = count === 0 || !!(state.replay.run && !REPLAY_ENDED.includes(state.replay.run.state));
  }

  function replayRequest() {
    const from = $('#replay-from').value;
    const to = $('#replay-to').value;
    const request = { choices: [] };
    if (from) request.fromMs = new Date(from).getTime();
    if (to) request.toMs = new Date(to).getTime();
    for (const choice of document.querySelectorAll('#replay-choices .replay-choice')) {
      const name = $('select.replay-profile', choice).value;
      const running = state.config.profiles[name].weights;
      const weights = {};
      for (const input of choice.querySelectorAll('input[data-scorer]')) {
        const weight = input.value === '' ? NaN : Number(input.value);
        if (weight !== running[input.dataset.scorer]) weights[input.dataset.scorer] = Number.isNaN(weight) ? input.value : weight;
      }
      request.choices.push(Object.keys(weights).length ? { profile: name, weights } : { profile: name });
    }
    return request;
  }

  async function startReplay() {
    const status = $('#replay-status');
    status.textContent = '';
    try {
      showRun(await postJson('api/replay/runs', replayRequest()));
    }
    catch (error) {
      status.textContent = `Not started: ${error.message}`;
    }
  }

  async function cancelReplay() {
    const run = state.replay.run;
    if (!run) return;
    try {
      showRun(await postJson(`api/replay/runs/${run.id}/cancel`, {}));
    }
    catch (error) {
      $('#replay-status').textContent = error.message;
    }
  }

  function pollRun(id) {
    clearTimeout(state.replay.pollTimer);
    state.replay.pollTimer = setTimeout(async () => {
      try {
        showRun(await getJson(`api/replay/runs/${id}`));
      }
      catch (error) {
        $('#replay-progress-text').textContent = error.message;
        pollRun(id);
      }
    }, 500);
  }

  // a figure with nothing to measure (no request completed) comes as "NaN"
  const replayFigure = (value, format) => (typeof value === 'number' && Number.isFinite(value) ? format(value) : '–');
  const FIGURES = [
    ['TTFT p50', (f) => replayFigure(f.ttftP50Ms, (v) => `${v.toFixed(1)} ms`)],
    ['TTFT p90', (f) => replayFigure(f.ttftP90Ms, (v) => `${v.toFixed(1)} ms`)],
    ['TTFT p99', (f) => replayFigure(f.ttftP99Ms, (v) => `${v.toFixed(1)} ms`)],
    ['requests/s', (f) => replayFigure(f.requestsPerSec, (v) => v.toFixed(2))],
    ['output tokens/s', (f) => replayFigure(f.outputTokensPerSec, (v) => v.toFixed(0))],
    ['prefix-cache hit rate', (f) => replayFigure(f.prefixHitRate, percent)],
    ['failed', (f) => String(f.failed)],
    ['rejected (429)', (f) => String(f.rejected)],
  ];

  function showRun(run) {
    state.replay.run = run;
    const ended = REPLAY_ENDED.includes(run.state);
    $('#replay-run-empty').hidden = true;
    $('#replay-run-detail').hidden = false;
    $('#replay-run').dataset.state = run.state;
    $('#replay-run-title').textContent = `Run #${run.id}: ${run.state}`;
    $('#replay-run-trace').textContent = run.trace || 'Reading the window\u2019s records\u2026';
    const fraction = run.requestsTotal > 0 ? run.requestsDone / run.requestsTotal : 0;
    $('#replay-progress > div').style.width = `${(run.state === 'done' ? 1 : fraction) * 100}%`;
    $('#replay-progress').dataset.progress = fraction.toFixed(3);
    $('#replay-progress-text').textContent = run.requestsTotal > 0
      ? `${run.requestsDone.toLocaleString()} of ${run.requestsTotal.toLocaleString()} requests replayed`
        + ` (${Math.floor(fraction * 100)}%), ${run.choices.filter((choice) => choice.figures).length} of ${run.choices.length} choices`
      : (ended ? '' : 'reading the capture\u2026');
    $('#replay-cancel').hidden = ended;
    $('#replay-run-error').hidden = !run.error;
    $('#replay-run-error').textContent = run.error || '';
    const winner = run.winner === undefined ? null : run.winner;
    const head = el('tr', {}, el('th', { text: '' }), ...run.choices.map((choice, i) => el('th', {
      class: `num${i === winner ? ' winner' : ''}`, 'data-choice': i,
      text: i === winner ? `${choice.label} \u2605` : choice.label })));
    const rows = FIGURES.map(([label, format]) => el('tr', {}, el('td', { text: label }),
      ...run.choices.map((choice, i) => el('td', { class: `num${i === winner ? ' winner' : ''}`,
        text: choice.figures ? format(choice.figures) : (ended ? '–' : '\u2026') }))));
    $('#replay-results thead').replaceChildren(head);
    $('#replay-results tbody').replaceChildren(...rows);
    $('#replay-winner').hidden = winner === null || !run.choices[winner].yaml;
    if (winner !== null) {
      $('#replay-yaml').textContent = run.choices[winner].yaml || '';
      $('#replay-copied').textContent = '';
    }
    updateChoiceButtons();
    if (!ended) pollRun(run.id);
  }

  async function copyYaml() {
    const text = $('#replay-yaml').textContent;
    try {
      await navigator.clipboard.writeText(text);
    }
    catch (error) {
      // plain HTTP from another host has no clipboard API: copy the selection instead
      const range = document.createRange();
      range.selectNodeContents($('#replay-yaml'));
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      document.execCommand('copy');
    }
    $('#replay-copied').textContent = 'copied';
  }

  function setUpReplay() {
    $('#replay-add-choice').addEventListener('click', () => addChoice(inUseProfile()));
    $('#replay-start').addEventListener('click', startReplay);
    $('#replay-cancel').addEventListener('click', cancelReplay);
    $('#replay-copy').addEventListener('click', copyYaml);
    $('#replay-whole').addEventListener('click', wholeCaptureWindow);
    $('#replay-refresh').addEventListener('click', () => loadCaptures(false));
    $('#replay-captures tbody').addEventListener('click', (event) => {
      const row = event.target.closest('tr.capture-row');
      const file = row && state.replay.captures.find((capture) => capture.name === row.dataset.file);
      if (file && file.firstArrivalMs !== undefined) setWindow(file.firstArrivalMs, file.lastArrivalMs);
    });
  }

  // ---- profiles, models, tenants, flow control --------------------------------------------------------------------

  function renderProfiles() {
    const { profiles, poolProfiles } = state.config;
    $('#profiles tbody').replaceChildren(...Object.entries(poolProfiles).map(([pool, name]) => {
      const profile = profiles[name];
      const weights = Object.entries(profile.weights).map(([scorer, weight]) => `${scorer} (${fixed(weight, 2)})`);
      return el('tr', {}, el('td', { text: pool }), el('td', { text: name }),
        el('td', { text: profile.filters.join(', ') || '–' }),
        el('td', { text: weights.join(', ') || '–' }), el('td', { text: profile.picker }));
    }));
  }

  function renderModels(models) {
    $('#models-section').hidden = !models;
    if (!models) return;
    $('#models tbody').replaceChildren(...models.map((model) => el('tr', { 'data-model': model.name },
      el('td', { class: 'mono', text: model.name }),
      el('td', { text: model.source }),
      el('td', {}, ...model.targets.map((target) => el('div', { class: 'mono', text: [target.pool, target.model,
        target.adapter || '–', target.weight === undefined ? '–' : target.weight].join(' · ') }))))));
  }

  function renderTenants(tenants) {
    $('#tenants-section').hidden = !tenants;
    if (!tenants) return;
    $('#tenants').replaceChildren(...tenants.map((tenant) => el('div', { class: 'tenant', 'data-tenant': tenant.tenant },
      el('h4', { text: tenant.tenant }),
      ...tenant.limits.map((limit) => {
        const fraction = limit.limit > 0 ? limit.used / limit.limit : 0;
        const bar = el('div', { class: `bar${fraction >= 1 ? ' over' : ''}` }, el('div'));
        bar.firstChild.style.width = `${Math.min(100, fraction * 100)}%`;
        return el('div', { class: 'limit' }, el('span', { class: 'mono', text: limit.name }), bar,
          el('span', { text: `${limit.used} of ${limit.limit}` }));
      }))));
  }

  const money = (value) => (Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2)
    : value === 0 ? '0' : value.toPrecision(2));

  function renderBudgets(budgets, section = '#budgets-section', list = '#budgets') {
    $(section).hidden = !budgets || budgets.length === 0;
    if (!budgets) return;
    $(list).replaceChildren(...budgets.map((budget) => {
      const fraction = budget.amount > 0 ? budget.spent / budget.amount : (budget.spent > 0 ? 1 : 0);
      const bar = el('div', { class: `bar${fraction >= 1 ? ' over' : ''}` }, el('div'));
      bar.firstChild.style.width = `${Math.min(100, fraction * 100)}%`;
      const badges = [el('span', { class: 'badge', text: `${budget.mode} · ${budget.period}` })];
      if (budget.reached) {
        badges.push(el('span', { class: `badge ${budget.mode === 'hard' ? 'bad' : 'warn'}`,
          text: budget.mode === 'hard' ? 'spent' : 'over budget' }));
      }
      const held = budget.held > 0 ? ` (+${money(budget.held)} held)` : '';
      return el('div', { class: 'budget limit', 'data-budget': budget.name,
        title: budget.resetsAt ? `resets at ${budget.resetsAt}` : '' },
        el('span', { class: 'mono', text: budget.name }), bar,
        el('span', { text: `${money(budget.spent)} of ${money(budget.amount)} ${budget.currency}${held}` }),
        el('span', { class: 'badges' }, ...badges));
    }));
  }

  function renderFlowControl(queues) {
    $('#flow-control-section').hidden = !queues;
    if (!queues) return;
    const figureNames = [...new Set(queues.flatMap((queue) => Object.keys(queue.figures || {})))];
    $('#flow-control thead').replaceChildren(el('tr', {}, el('th', { text: 'queue' }), el('th', { class: 'num', text: 'waiting' }),
      ...figureNames.map((name) => el('th', { class: 'num', text: name }))));
    $('#flow-control tbody').replaceChildren(...queues.map((queue) => el('tr', {},
      el('td', { text: queue.name }), el('td', { class: 'num', text: queue.waiting }),
      ...figureNames.map((name) => el('td', { class: 'num', text: queue.figures[name] ?? '–' })))));
  }


  // ---- usage view ----------------------------------------------------------------------------------------------

  const SERIES_COLOURS = ['#3b6fd8', '#d8743b', '#2f9e6e', '#b04fc4', '#c4a02f', '#4fb0c4', '#c44f6e', '#6e6e6e'];

  function usageSpan(period) {
    const now = new Date();
    const hours = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30 }[period];
    const from = hours ? new Date(now.getTime() - hours * 3600 * 1000)
      : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return { from: from.toISOString(), to: now.toISOString() };
  }

  function usageQuery(extra) {
    const span = usageSpan($('#usage-period').value);
    const params = new URLSearchParams({ from: span.from, to: span.to, 'group-by': $('#usage-group').value, ...extra });
    return `api/usage?${params}`;
  }

  async function loadUsage() {
    const group = $('#usage-group').value;
    $('#usage-csv').href = usageQuery({ format: 'csv' });
    $('#usage-status').textContent = 'loading…';
    let totals;
    let series;
    try {
      [totals, series] = await Promise.all([getJson(usageQuery({})),
        getJson(usageQuery({ interval: $('#usage-interval').value }))]);
    }
    catch (error) {
      $('#usage-status').textContent = error.message;
      $('#usage-unavailable').hidden = false;
      $('#usage-unavailable-reason').textContent = error.message;
      return;
    }
    $('#usage-unavailable').hidden = true;
    $('#usage-status').textContent = '';
    $('#usage-group-header').textContent = group;
    $('#usage-span').textContent = `${totals.from.substring(0, 16).replace('T', ' ')} to ${totals.to.substring(0, 16).replace('T', ' ')} UTC`;
    $('#usage-rows tbody').replaceChildren(...totals.rows.map((row) => el('tr', { 'data-usage': row[group] },
      el('td', { class: 'mono', text: row[group] }),
      el('td', { class: 'num', text: row.requests.toLocaleString() }),
      el('td', { class: 'num', text: row.inputTokens.toLocaleString() }),
      el('td', { class: 'num', text: row.cachedInputTokens.toLocaleString() }),
      el('td', { class: 'num', text: row.outputTokens.toLocaleString() }),
      el('td', { class: 'num', text: `${money(row.cost)} ${totals.currency}` }))));
    if (!totals.rows.length) {
      $('#usage-rows tbody').replaceChildren(el('tr', {}, el('td', { colSpan: 6, class: 'hint', text: 'No usage in this period.' })));
    }
    drawUsageChart(series, group);
    renderBudgets(totals.budgets, '#usage-budgets-section', '#usage-budgets');
  }

  function drawUsageChart(series, group) {
    const svg = $('#usage-chart');
    const width = svg.clientWidth || 800;
    const height = 180;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const ns = 'http://www.w3.org/2000/svg';
    const node = (tag, attributes) => {
      const element = document.createElementNS(ns, tag);
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      return element;
    };
    // one slot per interval of the whole period, empty ones included, so the chart reads as a time line
    const step = { minute: 60e3, hour: 3600e3, day: 86400e3 }[series.interval] || 3600e3;
    const first = Math.floor(Date.parse(series.from) / step) * step;
    const last = Date.parse(series.to);
    const times = [];
    for (let time = first; time < last && times.length < 2000; time += step) times.push(time);
    const names = [...new Set(series.rows.map((row) => row[group]))];
    const stacks = times.map((time) => series.rows.filter((row) => Date.parse(row.time) === time));
    const max = Math.max(0, ...stacks.map((rows) => rows.reduce((sum, row) => sum + row.cost, 0)));
    const children = [];
    const left = 60;
    const bottom = height - 20;
    children.push(node('line', { x1: left, y1: bottom, x2: width, y2: bottom, class: 'axis' }));
    const top = node('text', { x: left - 6, y: 12, 'text-anchor': 'end', class: 'tick' });
    top.textContent = `${money(max)} ${series.currency}`;
    children.push(top);
    const slot = times.length ? (width - left) / times.length : 0;
    stacks.forEach((rows, index) => {
      let y = bottom;
      for (const row of rows) {
        const barHeight = max > 0 ? (row.cost / max) * (bottom - 16) : 0;
        y -= barHeight;
        const bar = node('rect', { x: left + index * slot + 1, y, width: Math.max(1, slot - 2), height: barHeight,
          fill: SERIES_COLOURS[names.indexOf(row[group]) % SERIES_COLOURS.length], 'data-time': row.time });
        const title = document.createElementNS(ns, 'title');
        title.textContent = `${row[group]} · ${row.time.substring(0, 16).replace('T', ' ')} · ${money(row.cost)} ${series.currency}`;
        bar.appendChild(title);
        children.push(bar);
      }
    });
    if (times.length) {
      for (const [index, anchor] of [[0, 'start'], [times.length - 1, 'end']]) {
        const label = node('text', { x: left + index * slot + (anchor === 'end' ? slot : 0), y: height - 4,
          'text-anchor': anchor, class: 'tick' });
        label.textContent = new Date(times[index]).toISOString().substring(5, 16).replace('T', ' ');
        children.push(label);
      }
    }
    svg.replaceChildren(...children);
    $('#usage-legend').replaceChildren(...names.map((name, index) => {
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = SERIES_COLOURS[index % SERIES_COLOURS.length];
      return el('span', { class: 'legend-item' }, swatch, el('span', { class: 'mono', text: name }));
    }));
  }

  function setUpUsage() {
    for (const id of ['#usage-period', '#usage-group', '#usage-interval']) {
      $(id).addEventListener('change', loadUsage);
    }
  }

  // ---- the feed ------------------------------------------------------------------------------------------------

  function onSnapshot(snapshot, first) {
    state.snapshot = snapshot;
    renderPools(snapshot);
    addDecisions(snapshot.decisions, !first);
    renderModels(snapshot.models);
    renderTenants(snapshot.tenants);
    renderBudgets(snapshot.budgets);
    renderFlowControl(snapshot.flowControl);
    renderConfiguration(snapshot.configuration);
  }

  // the running configuration's version; when a reload changes it, the profiles are read again
  function renderConfiguration(configuration) {
    $('#config-version').hidden = !configuration;
    $('#configuration-section').hidden = !configuration;
    if (!configuration) return;
    const badge = $('#config-version');
    badge.textContent = `config v${configuration.version}`;
    badge.title = `in effect since ${configuration.changedAt}`;
    badge.classList.toggle('rejected', configuration.lastReloadOutcome === 'rejected');
    badge.dataset.version = configuration.version;
    const last = configuration.lastReloadAt
      ? ` Last reload ${configuration.lastReloadAt}: ${configuration.lastReloadOutcome}.` : '';
    $('#configuration-status').textContent =
      `Version ${configuration.version}, in effect since ${configuration.changedAt}.${last}`;
    $('#configuration-problems').replaceChildren(...(configuration.problems || []).map((problem) =>
      el('li', { class: 'mono', text: problem })));
    if (state.configVersion !== undefined && state.configVersion !== configuration.version) {
      getJson('api/config').then((config) => {
        state.config = config;
        renderProfiles();
        renderWeightInputs();
      }).catch(() => {});
    }
    state.configVersion = configuration.version;
  }

  async function loadBacklog() {
    const [decisions, history] = await Promise.all([getJson('api/decisions'), getJson('api/history')]);
    for (const [pool, endpoints] of Object.entries(history)) {
      for (const [endpoint, series] of Object.entries(endpoints)) {
        const key = `${pool}/${endpoint}`;
        const live = state.history.get(key);
        if (live) {
          // keep the live samples newer than the backlog's
          const newest = series.seconds[series.seconds.length - 1] ?? -1;
          live.seconds.forEach((second, i) => {
            if (second > newest) {
              for (const field of Object.keys(live)) series[field].push(live[field][i]);
            }
          });
        }
        state.history.set(key, series);
      }
    }
    for (const [key, card] of state.cards) drawCharts(card, key);
    addDecisions(decisions, false);
  }

  function connect() {
    const live = $('#live');
    const source = new EventSource('api/feed');
    let first = true;
    source.addEventListener('snapshot', (event) => {
      const snapshot = JSON.parse(event.data);
      live.className = 'live on';
      live.textContent = `live · ${new Date(snapshot.timeMillis).toLocaleTimeString()}`;
      onSnapshot(snapshot, first);
      if (first) {
        first = false;
        loadBacklog().catch((error) => { live.textContent = error.message; });
      }
    });
    source.addEventListener('error', () => {
      live.className = 'live off';
      live.textContent = 'reconnecting';
      first = true;
    });
  }

  async function start() {
    $('#decision-list tbody').addEventListener('click', (event) => {
      const row = event.target.closest('tr.decision-row');
      if (row) openDecision(Number(row.dataset.sequence));
    });
    window.addEventListener('hashchange', showView);
    state.config = await getJson('api/config');
    state.runtimeChanges = await getJson('api/changes');
    state.historySeconds = state.config.historySeconds;
    renderProfiles();
    setUpWhatIf();
    setUpReplay();
    setUpUsage();
    showView();
    connect();
  }

  start().catch((error) => { $('#live').textContent = `failed: ${error.message}`; });
})();
