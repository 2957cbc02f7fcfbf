// The Hourglass dashboard: a small single-page app over the server's /v1 admin API.
//
// Every value shown comes from the API and may be attacker-controlled (job ids, payloads, errors, topic names), so
// the page is built with DOM nodes and text only (el() below); nothing is ever assigned to innerHTML.
// The API token, when the server needs one, is kept in sessionStorage (gone when the tab closes) and sent as
// "Authorization: Bearer ..." on every call; a 401 or 403 brings back the sign-in form with the server's error.
'use strict';

(() => {
  const TOKEN_KEY = 'hourglass.token';
  const REFRESH_MS = 3000;
  const PAGE_SIZE = 50;
  const STATES = ['scheduled', 'ready', 'active', 'dead', 'completed'];

  const main = document.getElementById('main');
  const crumbs = document.getElementById('crumbs');
  const notice = document.getElementById('notice');
  const signOut = document.getElementById('sign-out');

  // What the browser tests read: the chart drawn on the topic page.
  const dashboard = { chart: null };
  window.hourglassDashboard = dashboard;

  // Each render bumps the generation, so a refresh or answer of an earlier page does not draw over the current one.
  let generation = 0;
  let timer = null;

  // ---- DOM helpers ----------------------------------------------------------------------------------------------

  /** Creates an element; strings among the children become text nodes (escaped by construction). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value == null || value === false) continue;
      if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else if (key === 'class') node.className = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child == null || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  /** Replaces a node's children; null and false among them are left out (optional parts of a page). */
  function fill(node, ...children) {
    node.replaceChildren(...children.flat().filter((c) => c != null && c !== false));
  }

  function show(...nodes) {
    fill(main, ...nodes);
  }

  function say(message, isError) {
    notice.textContent = message;
    notice.className = isError ? 'error' : '';
    notice.hidden = false;
  }

  function quiet() {
    notice.hidden = true;
  }

  function setCrumbs(...parts) {
    const nodes = [];
    parts.forEach((part, i) => {
      if (i > 0) nodes.push(el('span', { class: 'sep' }, '/'));
      nodes.push(part);
    });
    crumbs.replaceChildren(...nodes);
  }

  // ---- formatting -----------------------------------------------------------------------------------------------

  function span(ms) {
    const a = Math.abs(ms);
    if (a < 1000) return Math.round(a) + ' ms';
    if (a < 60000) return Math.round(a / 1000) + ' s';
    if (a < 3600000) return Math.round(a / 60000) + ' min';
    if (a < 86400000) return Math.round(a / 3600000) + ' h';
    return Math.round(a / 86400000) + ' d';
  }

  /** "in 3 min" or "2 h ago", from now. */
  function relative(iso) {
    const ms = Date.parse(iso) - Date.now();
    if (Math.abs(ms) < 1000) return 'now';
    return ms > 0 ? 'in ' + span(ms) : span(ms) + ' ago';
  }

  /** A time as local date and time plus how far from now; the ISO text on hover. */
  function when(iso) {
    if (!iso) return el('span', { class: 'muted' }, '–');
    const local = new Date(iso).toLocaleString();
    return el('span', { title: iso }, local, ' ', el('span', { class: 'muted' }, '(' + relative(iso) + ')'));
  }

  function count(n) {
    return Number(n).toLocaleString();
  }

  // ---- the API --------------------------------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  const enc = encodeURIComponent;

  async function api(method, path, body) {
    const headers = { Accept: 'application/json' };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (e) {
      data = null;
    }
    const message = (data && typeof data.error === 'string' && data.error) || 'HTTP ' + response.status;
    if (response.status === 401 || response.status === 403) {
      if (response.status === 401) sessionStorage.removeItem(TOKEN_KEY);
      signIn(message);
      throw new ApiError(response.status, message);
    }
    if (!response.ok) throw new ApiError(response.status, message);
    return data;
  }

  /** Runs an action; an API error other than 401/403 (which show the sign-in form) is shown in the notice. */
  async function attempt(action) {
    try {
      return await action();
    } catch (e) {
      if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) say(e.message, true);
      return undefined;
    }
  }

  function topicPath(topic) {
    return '/v1/topics/' + enc(topic);
  }

  // ---- confirmation ---------------------------------------------------------------------------------------------

  const dialog = document.getElementById('confirm');

  function confirmAction(message, label) {
    document.getElementById('confirm-message').textContent = message;
    document.getElementById('confirm-ok').textContent = label;
    dialog.returnValue = '';
    dialog.showModal();
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    });
  }

  /** Asks first, then runs the action and reports its result; re-renders the page after it. */
  async function confirmed(message, label, action, report) {
    if (!(await confirmAction(message, label))) return;
    const result = await attempt(action);
    if (result !== undefined) say(report(result));
    render();
  }

  // ---- sign-in --------------------------------------------------------------------------------------------------

  function signIn(error) {
    generation++;
    clearTimeout(timer);
    signOut.hidden = true;
    setCrumbs();
    const input = el('input', {
      id: 'token',
      type: 'password',
      autocomplete: 'off',
      placeholder: 'API token with the admin right',
      required: true,
    });
    const form = el(
      'form',
      {
        id: 'sign-in',
        class: 'card signin',
        onsubmit: (event) => {
          event.preventDefault();
          const token = input.value.trim();
          // An HTTP header carries only visible ASCII; fetch would throw on anything else.
          if (!/^[\x21-\x7e]+$/.test(token)) {
            signIn('token: must be visible ASCII characters without spaces');
            return;
          }
          sessionStorage.setItem(TOKEN_KEY, token);
          quiet();
          render();
        },
      },
      el('h1', {}, 'Sign in'),
      el('p', { class: 'muted' }, 'This server needs an API token with the admin right. It is kept in this tab only.'),
      error ? el('p', { id: 'sign-in-error', class: 'error' }, error) : null,
      el('div', { class: 'row' }, input, el('button', { type: 'submit', class: 'primary' }, 'Sign in')),
    );
    show(form);
    input.focus();
  }

  signOut.addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    quiet();
    signIn(null);
  });

  // ---- topics page ----------------------------------------------------------------------------------------------

  async function topicsPage(gen) {
    setCrumbs(el('span', {}, 'Topics'));
    const [topics, schedules, tier] = await Promise.all([
      api('GET', '/v1/topics'),
      api('GET', '/v1/schedules'),
      // A cold tier whose PostgreSQL is down (503) must not hide the topics: its part shows the error instead.
      api('GET', '/v1/tier').catch((e) => e),
    ]);
    if (gen !== generation) return;
    const rows = topics.map((t) =>
      el(
        'tr',
        { 'data-topic': t.topic },
        el('td', {}, el('a', { href: '#/topics/' + enc(t.topic) }, t.topic)),
        el('td', { class: 'num' }, count(t.scheduled)),
        el('td', { class: 'num' }, count(t.ready)),
        el('td', { class: 'num' }, count(t.active)),
        el('td', { class: 'num' }, t.dead > 0 ? el('span', { class: 'badge dead' }, count(t.dead)) : '0'),
        el('td', { class: 'num' }, span(t.latencyMs)),
        el('td', {}, when(t.nextDueAt)),
        el('td', { class: 'state' }, pausedBadge(t.paused)),
      ),
    );
    show(
      el('h1', {}, 'Topics', el('span', { class: 'muted' }, '(refreshed every ' + REFRESH_MS / 1000 + ' s)')),
      topics.length === 0
        ? el('p', { class: 'card muted' }, 'No topic yet: topics appear on their first job.')
        : el(
            'table',
            { id: 'topics' },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                el('th', {}, 'Topic'),
                el('th', { class: 'num' }, 'Scheduled'),
                el('th', { class: 'num' }, 'Ready'),
                el('th', { class: 'num' }, 'Active'),
                el('th', { class: 'num' }, 'Dead'),
                el('th', { class: 'num', title: 'Age of the oldest ready job' }, 'Latency'),
                el('th', {}, 'Next due'),
                el('th', {}, 'Status'),
              ),
            ),
            el('tbody', {}, rows),
          ),
      tierPart(tier),
      schedulesPart(schedules),
    );
    timer = setTimeout(() => gen === generation && refresh(gen, topicsPage), REFRESH_MS);
  }

  /**
   * The cold tier (GET /v1/tier): the horizon beyond which jobs wait in PostgreSQL, how many wait there and the
   * earliest due, and how far the feeder that moves them into Redis is behind; or plainly that there is none.
   */
  function tierPart(tier) {
    const heading = el('h2', {}, 'Cold tier');
    if (tier instanceof Error) {
      return [heading, el('p', { id: 'tier', class: 'card error' }, 'The cold tier cannot be read: ' + tier.message)];
    }
    if (!tier.configured) {
      return [
        heading,
        el(
          'p',
          { id: 'tier', class: 'card muted' },
          'No cold tier is configured: every job waits in Redis. A server started with --tier-jdbc-url keeps the jobs' +
            ' due beyond a horizon in PostgreSQL.',
        ),
      ];
    }
    const w = tier.waiting;
    const field = (label, id, value) => [el('dt', {}, label), el('dd', { id }, value)];
    const topics = w.topics ? Object.entries(w.topics) : [];
    const late = tier.horizonMs != null && tier.lagMs > tier.horizonMs;
    return [
      heading,
      el(
        'div',
        { id: 'tier', class: 'card' },
        el(
          'dl',
          { class: 'fields' },
          field('Horizon', 'tier-horizon', tier.horizonMs == null ? '–' : span(tier.horizonMs)),
          field(
            'Waiting in PostgreSQL',
            'tier-waiting',
            (w.exact ? count(w.jobs) : 'more than ' + count(w.jobs)) +
              (w.tableRowsEstimate >= 0 ? ' (whole table: about ' + count(w.tableRowsEstimate) + ' rows)' : ''),
          ),
          topics.length > 0
            ? field(
                'Per topic',
                'tier-topics',
                topics.flatMap(([t, n], i) => [
                  i > 0 ? ' · ' : null,
                  el('a', { href: '#/topics/' + enc(t) }, t),
                  ' ' + count(n),
                ]),
              )
            : null,
          field('Earliest due', 'tier-earliest', when(w.earliestDueAt)),
          field(
            'Feeder lag',
            'tier-lag',
            tier.lagMs > 0
              ? el(
                  'span',
                  { class: 'badge' + (late ? ' dead' : ' paused') },
                  span(tier.lagMs) + (late ? ' behind: jobs are late' : ' behind'),
                )
              : 'none: the feeder keeps up',
          ),
          field('Moved into Redis', 'tier-moved', count(tier.movedJobs) + ' since this server started'),
        ),
      ),
    ];
  }

  /** The recurring schedules, read only: each tick of one becomes a job of its topic. */
  function schedulesPart(schedules) {
    const rows = schedules.map((s) =>
      el(
        'tr',
        { 'data-schedule': s.name },
        el('td', {}, s.name),
        el('td', {}, el('a', { href: '#/topics/' + enc(s.topic) }, s.topic)),
        el('td', {}, el('code', {}, s.cron)),
        el('td', {}, s.zone),
        el('td', {}, when(s.nextFireTimes[0])),
        el('td', {}, when(s.lastTick)),
      ),
    );
    return [
      el('h2', {}, 'Schedules'),
      schedules.length === 0
        ? el('p', { class: 'card muted' }, 'No recurring schedule.')
        : el(
            'table',
            { id: 'schedules' },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                el('th', {}, 'Schedule'),
                el('th', {}, 'Topic'),
                el('th', {}, 'Cron'),
                el('th', {}, 'Zone'),
                el('th', {}, 'Next tick'),
                el('th', {}, 'Last tick'),
              ),
            ),
            el('tbody', {}, rows),
          ),
    ];
  }

  function pausedBadge(paused) {
    return paused ? el('span', { class: 'badge paused' }, 'paused') : el('span', { class: 'badge' }, 'running');
  }

  /** Re-runs a page's loader for the same generation; a failed refresh is shown but keeps refreshing. */
  async function refresh(gen, page, ...args) {
    try {
      await page(gen, ...args);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return;
      if (gen !== generation) return;
      say(e.message, true);
      timer = setTimeout(() => gen === generation && refresh(gen, page, ...args), REFRESH_MS);
    }
  }

  // ---- topic page -----------------------------------------------------------------------------------------------

  /** The topic page's list: which state, and the cursors of the pages before the current one. */
  let listing = { topic: null, state: 'ready', cursors: [null] };

  async function topicPage(gen, topic) {
    if (listing.topic !== topic) listing = { topic, state: 'ready', cursors: [null] };
    setCrumbs(el('a', { href: '#/' }, 'Topics'), el('span', {}, topic));
    const overview = el('div', { id: 'overview' });
    const flow = el('div', { id: 'flow', class: 'card' });
    const chart = el('div', { id: 'chart', class: 'card' });
    const jobs = el('div', { id: 'jobs' });
    const search = el('input', { id: 'job-search', type: 'text', placeholder: 'Job id' });
    show(
      overview,
      el('h2', {}, 'Flow control'),
      flow,
      el('h2', {}, 'Processed and failed per minute, last 24 h'),
      chart,
      el(
        'form',
        {
          class: 'row',
          onsubmit: (event) => {
            event.preventDefault();
            findJob(topic, search.value.trim());
          },
        },
        el('h2', { class: 'spacer' }, 'Jobs'),
        search,
        el('button', { type: 'submit' }, 'Find by id'),
      ),
      jobs,
    );
    await Promise.all([
      overviewPart(gen, topic, overview),
      flowPart(gen, topic, flow),
      chartPart(gen, topic, chart),
      jobsPart(gen, topic, jobs),
    ]);
  }

  /**
   * The topic's flow control as stored in Redis (rate limit, burst, concurrency cap; 0 is none), in a form an admin
   * changes after a confirmation. Not refreshed on the timer, so that a value being typed is not overwritten.
   */
  async function flowPart(gen, topic, box) {
    const c = await api('GET', topicPath(topic) + '/config');
    if (gen !== generation) return;
    const field = (id, label, value, step) =>
      el(
        'label',
        {},
        el('span', {}, label),
        el('input', { id, type: 'number', min: '0', step, required: true, value: String(value) }),
      );
    const limit = (n, unit) => (n > 0 ? count(n) + unit : 'none');
    fill(
      box,
      el(
        'p',
        { id: 'flow-summary', class: 'muted' },
        'Rate limit: ' + limit(c.ratePerSecond, '/s') + (c.ratePerSecond > 0 ? ' (burst ' + count(c.burst) + ')' : '') +
          ' · concurrency cap: ' + limit(c.maxConcurrency, ' at once') + ' · across every worker of the topic',
      ),
      el(
        'form',
        {
          class: 'row flow',
          onsubmit: (event) => {
            event.preventDefault();
            const value = (id) => Number(box.querySelector('#' + id).value);
            configure(topic, {
              ratePerSecond: value('flow-rate'),
              burst: value('flow-burst'),
              maxConcurrency: value('flow-cap'),
            });
          },
        },
        field('flow-rate', 'rate per second', c.ratePerSecond, 'any'),
        field('flow-burst', 'burst', c.burst, '1'),
        field('flow-cap', 'max concurrency', c.maxConcurrency, '1'),
        el('button', { id: 'flow-save', type: 'submit' }, 'Save'),
      ),
    );
  }

  function configure(topic, config) {
    const rate = (c) =>
      c.ratePerSecond > 0 ? c.ratePerSecond + ' per second (burst ' + c.burst + ')' : 'no rate limit';
    const cap = (c) => (c.maxConcurrency > 0 ? 'at most ' + c.maxConcurrency + ' at once' : 'no concurrency cap');
    confirmed(
      'Set the flow control of topic "' + topic + '" to ' + rate(config) + ' and ' + cap(config) +
        '? Every worker, pull reservation and callback of the topic is held to it at once.',
      'Save',
      () => api('PUT', topicPath(topic) + '/config', config),
      (c) => 'Flow control of "' + topic + '" saved: ' + rate(c) + ', ' + cap(c) + '.',
    );
  }

  async function overviewPart(gen, topic, box) {
    const t = await api('GET', topicPath(topic));
    if (gen !== generation) return;
    const button = t.paused
      ? el('button', { id: 'resume', class: 'primary', onclick: () => pauseOrResume(topic, false) }, 'Resume')
      : el('button', { id: 'pause', onclick: () => pauseOrResume(topic, true) }, 'Pause');
    const tile = (label, value) => el('div', { class: 'card' }, el('b', {}, value), el('span', {}, label));
    fill(
      box,
      el(
        'h1',
        {},
        t.topic,
        el('span', { id: 'topic-state' }, pausedBadge(t.paused)),
        el('span', { class: 'spacer' }),
        button,
      ),
      el(
        'div',
        { class: 'counts' },
        tile('scheduled', count(t.scheduled)),
        tile('ready', count(t.ready)),
        tile('active', count(t.active)),
        tile('dead', count(t.dead)),
        // Shown once the topic's dead-letter limits deleted any: how many, since the topic began.
        t.deadLettersTrimmed > 0 ? tile('dead letters trimmed', count(t.deadLettersTrimmed)) : null,
        // Shown while the topic retains completed jobs (--completed-retention): how many are kept now.
        t.completed > 0 ? tile('completed', count(t.completed)) : null,
        tile('latency', span(t.latencyMs)),
        tile('next due', t.nextDueAt ? relative(t.nextDueAt) : '–'),
      ),
    );
    const again = () => refresh(gen, (g) => overviewPart(g, topic, box));
    timer = setTimeout(() => gen === generation && again(), REFRESH_MS);
  }

  function pauseOrResume(topic, pause) {
    confirmed(
      pause
        ? 'Pause topic "' + topic + '"? No worker is given its jobs until it is resumed; scheduling goes on.'
        : 'Resume topic "' + topic + '"? Workers claim its ready jobs at once.',
      pause ? 'Pause' : 'Resume',
      () => api('POST', topicPath(topic) + (pause ? '/pause' : '/resume')),
      (t) => 'Topic "' + t.topic + '" ' + (t.paused ? 'paused.' : 'resumed.'),
    );
  }

  async function chartPart(gen, topic, box) {
    const history = await api('GET', topicPath(topic) + '/history');
    if (gen !== generation) return;
    // The API lists only minutes with a count; the chart shows every minute of the last 24 h, zeros included.
    const counts = new Map(history.minutes.map((m) => [Math.floor(Date.parse(m.minute) / 1000), m]));
    const now = Math.floor(Date.now() / 60000) * 60;
    const keys = [...counts.keys()];
    const first = Math.min(now - 1439 * 60, ...keys);
    const last = Math.max(now, ...keys);
    const x = [];
    const processed = [];
    const failed = [];
    for (let s = first; s <= last; s += 60) {
      const m = counts.get(s);
      x.push(s);
      processed.push(m ? m.processed : 0);
      failed.push(m ? m.failed : 0);
    }
    if (dashboard.chart) dashboard.chart.destroy();
    box.replaceChildren();
    dashboard.chart = new uPlot(
      {
        width: Math.max(box.clientWidth - 32, 300),
        height: 240,
        cursor: { drag: { x: false, y: false } },
        scales: { y: { range: (u, min, max) => [0, Math.max(max, 1)] } },
        series: [
          {},
          { label: 'processed', stroke: '#1f8a4c', fill: 'rgba(31,138,76,.12)', width: 1.5 },
          { label: 'failed', stroke: '#c2362f', fill: 'rgba(194,54,47,.12)', width: 1.5 },
        ],
        axes: [{}, { size: 50 }],
      },
      [x, processed, failed],
      box,
    );
  }

  async function jobsPart(gen, topic, box) {
    const state = listing.state;
    const cursor = listing.cursors[listing.cursors.length - 1];
    const query = '?state=' + state + '&limit=' + PAGE_SIZE + (cursor ? '&cursor=' + enc(cursor) : '');
    const page = await api('GET', topicPath(topic) + '/jobs' + query);
    if (gen !== generation) return;
    const dead = state === 'dead';
    const tabs = el(
      'div',
      { class: 'tabs', role: 'tablist' },
      STATES.map((s) =>
        el(
          'button',
          {
            type: 'button',
            id: 'tab-' + s,
            class: s === state ? 'on' : null,
            onclick: () => {
              listing.state = s;
              listing.cursors = [null];
              render();
            },
          },
          s,
        ),
      ),
    );
    const selected = () => [...box.querySelectorAll('input.pick:checked')].map((c) => c.value);
    const bulk = dead
      ? el(
          'div',
          { class: 'row' },
          el('button', { id: 'requeue-selected', onclick: () => requeue(topic, selected()) }, 'Requeue selected'),
          el('button', { id: 'delete-selected', onclick: () => deleteDead(topic, selected()) }, 'Delete selected'),
          el('span', { class: 'spacer' }),
          el('button', { id: 'requeue-all', onclick: () => requeue(topic, null) }, 'Requeue all dead'),
          el(
            'button',
            { id: 'delete-all', class: 'danger', onclick: () => deleteDead(topic, null) },
            'Delete all dead',
          ),
        )
      : null;
    const rows = page.jobs.map((j) =>
      el(
        'tr',
        { 'data-id': j.id },
        dead
          ? el('td', {}, el('input', { type: 'checkbox', class: 'pick', value: j.id, 'aria-label': 'select' }))
          : null,
        el('td', { class: 'cut mono' }, el('a', { href: jobHref(topic, j.id) }, j.id)),
        el('td', {}, when({ ACTIVE: j.leaseUntil, DEAD: j.diedAt, COMPLETED: j.completedAt }[j.state] || j.dueAt)),
        el('td', { class: 'num' }, j.attempt + ' / ' + j.maxAttempts),
        el('td', { class: 'cut', title: j.lastError || '' }, j.lastError || ''),
        el('td', { class: 'cut mono', title: preview(j) }, preview(j)),
        el('td', {}, rowActions(topic, j)),
      ),
    );
    const timeLabel = { scheduled: 'Due', ready: 'Due', active: 'Lease until', dead: 'Died', completed: 'Completed' }[
      state
    ];
    fill(
      box,
      tabs,
      bulk,
      page.jobs.length === 0
        ? el('p', { class: 'card muted' }, 'No ' + state + ' job.')
        : el(
            'table',
            { id: 'job-list' },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                dead ? el('th', {}, '') : null,
                el('th', {}, 'Id'),
                el('th', {}, timeLabel),
                el('th', { class: 'num' }, 'Attempts'),
                el('th', {}, 'Last error'),
                el('th', {}, 'Payload'),
                el('th', {}, ''),
              ),
            ),
            el('tbody', {}, rows),
          ),
      el(
        'div',
        { class: 'row' },
        el(
          'button',
          {
            id: 'page-previous',
            disabled: listing.cursors.length <= 1,
            onclick: () => {
              listing.cursors.pop();
              render();
            },
          },
          '← Previous',
        ),
        el(
          'button',
          {
            id: 'page-next',
            disabled: !page.nextCursor,
            onclick: () => {
              listing.cursors.push(page.nextCursor);
              render();
            },
          },
          'Next →',
        ),
        el('span', { class: 'muted' }, 'page ' + listing.cursors.length + ', ' + PAGE_SIZE + ' a page'),
      ),
    );
  }

  function preview(j) {
    if (j.payloadPreviewEncoding === 'base64') return '(binary, ' + count(j.payloadBytes) + ' bytes)';
    return j.payloadPreview + (j.payloadBytes > j.payloadPreview.length ? '…' : '');
  }

  function jobHref(topic, id) {
    return '#/topics/' + enc(topic) + '/jobs/' + enc(id);
  }

  function rowActions(topic, j) {
    const buttons = [];
    if (j.state === 'SCHEDULED') {
      buttons.push(el('button', { class: 'small run', onclick: () => runNow(topic, j.id) }, 'Run now'));
    }
    if (j.state === 'DEAD') {
      buttons.push(el('button', { class: 'small requeue', onclick: () => requeue(topic, [j.id]) }, 'Requeue'));
      buttons.push(el('button', { class: 'small delete', onclick: () => deleteDead(topic, [j.id]) }, 'Delete'));
    } else if (j.state !== 'COMPLETED') {
      buttons.push(el('button', { class: 'small cancel', onclick: () => cancel(topic, j.id) }, 'Cancel'));
    }
    return el('div', { class: 'row' }, buttons);
  }

  async function findJob(topic, id) {
    if (!id) return;
    try {
      await api('GET', topicPath(topic) + '/jobs/' + enc(id));
      location.hash = jobHref(topic, id);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) say('No job "' + id + '" in topic "' + topic + '".', true);
      else if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) say(e.message, true);
    }
  }

  // ---- actions --------------------------------------------------------------------------------------------------

  function runNow(topic, id) {
    confirmed(
      'Run job "' + id + '" now? It becomes ready at once.',
      'Run now',
      () => api('POST', topicPath(topic) + '/jobs/' + enc(id) + '/run'),
      (r) =>
        r.outcome === 'MADE_READY' ? 'Job "' + r.id + '" is ready now.' : 'Job "' + r.id + '" was ready already.',
    );
  }

  function cancel(topic, id) {
    confirmed(
      'Cancel job "' + id + '"? It is deleted and will not run.',
      'Cancel job',
      () => api('DELETE', topicPath(topic) + '/jobs/' + enc(id)).then(() => true),
      () => 'Job "' + id + '" cancelled.',
    );
  }

  /** ids: the dead letters to requeue, or null for all of the topic's. */
  function requeue(topic, ids) {
    if (ids && ids.length === 0) return say('Select dead letters first.', true);
    confirmed(
      ids
        ? 'Requeue ' + ids.length + ' dead letter(s)? Their attempts are reset.'
        : 'Requeue every dead letter of "' + topic + '"?',
      'Requeue',
      () => api('POST', topicPath(topic) + '/dead/requeue', ids ? { ids } : {}),
      (r) => 'Requeued ' + r.requeued + ' dead letter(s).',
    );
  }

  /** ids: the dead letters to delete, or null for all of the topic's. */
  function deleteDead(topic, ids) {
    if (ids && ids.length === 0) return say('Select dead letters first.', true);
    const query = ids ? '?' + ids.map((id) => 'id=' + enc(id)).join('&') : '';
    confirmed(
      ids
        ? 'Delete ' + ids.length + ' dead letter(s)? This cannot be undone.'
        : 'Delete every dead letter of "' + topic + '"? This cannot be undone.',
      'Delete',
      () => api('DELETE', topicPath(topic) + '/dead' + query),
      (r) => 'Deleted ' + r.deleted + ' dead letter(s).',
    );
  }

  // ---- job page -------------------------------------------------------------------------------------------------

  async function jobPage(gen, topic, id) {
    setCrumbs(
      el('a', { href: '#/' }, 'Topics'),
      el('a', { href: '#/topics/' + enc(topic) }, topic),
      el('span', {}, id),
    );
    let job;
    try {
      job = await api('GET', topicPath(topic) + '/jobs/' + enc(id));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        const slot = el('p', {});
        if (gen === generation) show(el('p', { class: 'card muted' }, 'No job "' + id + '" in topic "' + topic + '".'), slot);
        historyLinkPart(gen, slot, topic, id, 'It may have ended: see its history');
        return;
      }
      throw e;
    }
    if (gen !== generation) return;
    const actions = rowActions(topic, job);
    const historySlot = el('span', {});
    actions.append(historySlot);
    historyLinkPart(gen, historySlot, topic, id, 'History of this job');
    const field = (label, value) => [el('dt', {}, label), el('dd', {}, value)];
    // A payload that is JSON arrives as JSON; one that is not arrives as a string of its text.
    const isText = typeof job.payload === 'string';
    show(
      el(
        'h1',
        {},
        el('span', { class: 'mono' }, job.id),
        el('span', { class: 'badge' + (job.state === 'DEAD' ? ' dead' : '') }, job.state),
      ),
      actions,
      el(
        'div',
        { class: 'card' },
        el(
          'dl',
          { class: 'fields' },
          field('Topic', job.topic),
          field('State', job.state),
          field('Due', when(job.dueAt)),
          field('Attempts', job.attempt + ' of ' + job.maxAttempts),
          // Shown only away from the default 0, so that most jobs' fields stay as they were.
          job.priority ? field('Priority', String(job.priority)) : null,
          job.leaseUntil ? field('Lease until', when(job.leaseUntil)) : null,
          job.completedAt ? field('Completed', when(job.completedAt)) : null,
          job.callbackUrl ? field('Callback URL', el('span', { class: 'mono' }, job.callbackUrl)) : null,
        ),
      ),
      el('h2', {}, 'Last error'),
      job.lastError
        ? el('pre', { id: 'last-error', class: 'block' }, job.lastError)
        : el('p', { class: 'muted' }, 'None.'),
      el('h2', {}, 'Payload ', el('span', { class: 'muted' }, isText ? '(text)' : '(JSON)')),
      el('pre', { id: 'payload', class: 'block' }, isText ? job.payload : JSON.stringify(job.payload, null, 2)),
      // A completed job kept after its ack shows the result its ack gave, if any (text or JSON, as the payload).
      job.state === 'COMPLETED' ? el('h2', {}, 'Result') : null,
      job.state === 'COMPLETED'
        ? job.result === undefined
          ? el('p', { class: 'muted' }, 'None.')
          : el(
              'pre',
              { id: 'result', class: 'block' },
              typeof job.result === 'string' ? job.result : JSON.stringify(job.result, null, 2),
            )
        : null,
    );
  }

  // ---- job history ----------------------------------------------------------------------------------------------

  const OUTCOMES = ['ACKED', 'DEAD', 'CANCELLED', 'EXPIRED', 'TRIMMED'];
  const historyNav = document.getElementById('history-nav');

  // Whether the server keeps a job history (GET /v1/history answers 404 without one); null until known.
  let historyKept = null;

  /** Asks the server once, with a plain fetch: a 401 or 403 here must not bring up the sign-in form. */
  async function historyConfigured() {
    if (historyKept !== null) return historyKept;
    const headers = { Accept: 'application/json' };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = 'Bearer ' + token;
    try {
      const response = await fetch('/v1/history?limit=1', { headers, cache: 'no-store' });
      // Not signed in yet: ask again on the next page.
      if (response.status === 401) return false;
      historyKept = response.status !== 404;
    } catch (e) {
      return false;
    }
    return historyKept;
  }

  /** The history page's route for a search: its filters in the route's query, empty ones left out. */
  function historyHref(filters) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
    const text = query.toString();
    return '#/history' + (text ? '?' + text : '');
  }

  /** Fills the slot with a link to the job's history once the server says it keeps one. */
  async function historyLinkPart(gen, slot, topic, id, label) {
    if (!(await historyConfigured()) || gen !== generation) return;
    fill(slot, el('a', { id: 'job-history', href: historyHref({ topic, id }) }, label));
  }

  /** An ISO-8601 time or ms since the epoch, as a datetime-local input's value (local time, to the minute). */
  function localInput(text) {
    if (!text) return '';
    const d = new Date(/^\d+$/.test(text) ? Number(text) : text);
    if (isNaN(d)) return '';
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  }

  /** A datetime-local input's value (local time) as ISO-8601, or '' when empty. */
  function isoOf(local) {
    return local ? new Date(local).toISOString() : '';
  }

  async function historyPage(gen, params) {
    setCrumbs(el('span', {}, 'History'));
    const input = (id, type, placeholder, value) => el('input', { id, type, placeholder, value, 'aria-label': placeholder });
    const topic = input('history-topic', 'text', 'Topic', params.get('topic') || '');
    const id = input('history-id', 'text', 'Job id', params.get('id') || '');
    const from = input('history-from', 'datetime-local', 'Ended from', localInput(params.get('from')));
    const to = input('history-to', 'datetime-local', 'Ended before', localInput(params.get('to')));
    const outcome = el(
      'select',
      { id: 'history-outcome', 'aria-label': 'Outcome' },
      el('option', { value: '' }, 'any outcome'),
      OUTCOMES.map((o) => el('option', { value: o, selected: params.get('outcome') === o }, o)),
    );
    const list = el('div', { id: 'history' });
    show(
      el('h1', {}, 'Job history', el('span', { class: 'muted' }, '(jobs that ended, newest first)')),
      el(
        'form',
        {
          class: 'row',
          onsubmit: (event) => {
            event.preventDefault();
            location.hash = historyHref({
              topic: topic.value.trim(),
              id: id.value.trim(),
              outcome: outcome.value,
              from: isoOf(from.value),
              to: isoOf(to.value),
            });
          },
        },
        topic,
        id,
        outcome,
        from,
        to,
        el('button', { id: 'history-search', type: 'submit', class: 'primary' }, 'Search'),
      ),
      list,
    );
    const query = new URLSearchParams({ limit: PAGE_SIZE });
    for (const key of ['topic', 'id', 'outcome', 'from', 'to', 'cursor']) {
      if (params.get(key)) query.set(key, params.get(key));
    }
    let page;
    try {
      page = await api('GET', '/v1/history?' + query);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        if (gen === generation) {
          fill(list, el('p', { class: 'card muted' }, 'This server keeps no job history: start it with --history-jdbc-url.'));
        }
        return;
      }
      throw e;
    }
    if (gen !== generation) return;
    const rows = page.entries.map((h) =>
      el(
        'tr',
        { 'data-id': h.id },
        el('td', {}, when(h.completedAt)),
        el('td', {}, el('a', { href: '#/topics/' + enc(h.topic) }, h.topic)),
        el('td', { class: 'cut mono' }, el('a', { href: jobHref(h.topic, h.id) }, h.id)),
        el('td', {}, el('span', { class: 'badge' + (h.outcome === 'ACKED' ? '' : ' dead') }, h.outcome)),
        el('td', { class: 'num' }, h.attempts + ' / ' + h.maxAttempts),
        el('td', { class: 'cut', title: h.lastError || '' }, h.lastError || ''),
      ),
    );
    const current = Object.fromEntries([...params.entries()].filter(([key]) => key !== 'cursor'));
    fill(
      list,
      page.entries.length === 0
        ? el('p', { class: 'card muted' }, 'No job in the history matches.')
        : el(
            'table',
            { id: 'history-list' },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                el('th', {}, 'Ended'),
                el('th', {}, 'Topic'),
                el('th', {}, 'Id'),
                el('th', {}, 'Outcome'),
                el('th', { class: 'num' }, 'Attempts'),
                el('th', {}, 'Last error'),
              ),
            ),
            el('tbody', {}, rows),
          ),
      el(
        'div',
        { class: 'row' },
        el('a', { id: 'history-newest', class: 'button', href: historyHref(current), hidden: !params.get('cursor') }, '← Newest'),
        el(
          'a',
          {
            id: 'history-next',
            class: 'button',
            href: historyHref({ ...current, cursor: page.nextCursor }),
            hidden: !page.nextCursor,
          },
          'Older →',
        ),
      ),
    );
  }

  // ---- routing --------------------------------------------------------------------------------------------------

  function render() {
    const gen = ++generation;
    clearTimeout(timer);
    signOut.hidden = !sessionStorage.getItem(TOKEN_KEY);
    let parts;
    // The history page keeps its search in the route's query: #/history?topic=…&outcome=…
    const hash = location.hash.replace(/^#\/?/, '');
    const q = hash.indexOf('?');
    const params = new URLSearchParams(q < 0 ? '' : hash.slice(q + 1));
    try {
      parts = (q < 0 ? hash : hash.slice(0, q))
        .split('/')
        .filter((p) => p !== '')
        .map(decodeURIComponent);
    } catch (e) {
      parts = ['?'];
    }
    let page;
    if (parts.length === 0) page = (g) => topicsPage(g);
    else if (parts[0] === 'topics' && parts.length === 2) page = (g) => topicPage(g, parts[1]);
    else if (parts[0] === 'topics' && parts.length === 4 && parts[2] === 'jobs')
      page = (g) => jobPage(g, parts[1], parts[3]);
    else if (parts[0] === 'history' && parts.length === 1) page = (g) => historyPage(g, params);
    else page = () => show(el('p', { class: 'card muted' }, 'No such page.'));
    if (dashboard.chart && !(parts.length === 2)) {
      dashboard.chart.destroy();
      dashboard.chart = null;
    }
    refresh(gen, page);
    historyConfigured().then((kept) => {
      historyNav.hidden = !kept;
    });
  }

  window.addEventListener('hashchange', () => {
    quiet();
    render();
  });
  render();
})();
