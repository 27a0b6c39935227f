'use strict';
// The home screen: cards drawn from the host's event stream; taps, edits, additions,
// removals and reordering sent back to it. Live texts tick here, not on the host.
const screen = document.getElementById('screen');
const home = document.getElementById('home');
const lock = document.getElementById('lock');
const lockFamilies = ['accessoryCircular', 'accessoryRectangular', 'accessoryInline'];
// Where a card goes: the Lock Screen's families to its area, the others to the home grid.
function place(element, family) {
  (lockFamilies.includes(family) ? lock : home).appendChild(element);
  lock.hidden = !lock.querySelector('.card');
}
const cards = new Map();
let offset = 0;  // the host's clock less this one's, in seconds
let ticking = null;
let reconnected = null;  // what to say once the stream is back, after it was lost

// The token: from the address's fragment (which the browser sends nowhere), kept in this
// tab's session storage (this origin's alone: another port is another origin, and a cookie
// would go to every port), and sent in a header with every request.
const given = new URLSearchParams(location.hash.slice(1)).get('token');
// A widget to edit at once (`#token=…&edit=ID`: the desktop surface's right click on a widget),
// once its card is there.
let editFirst = new URLSearchParams(location.hash.slice(1)).get('edit');
let token = (() => {
  if (given) {
    sessionStorage.setItem('widgets-token', given);
    history.replaceState(null, '', location.pathname);
  }
  return sessionStorage.getItem('widgets-token') || '';
})();

// A page opened with a token in its address tells this origin's other pages (a channel between
// tabs, nothing stored): one waiting since the host refused its token (or that had none) takes
// the new one and carries on. A page reloaded with the token it kept says nothing, and a page
// whose token works takes none: a stale tab cannot hand its old token to the others.
const tokens = 'BroadcastChannel' in window ? new BroadcastChannel('widgets-token') : null;
let tokenArrived = null;
if (tokens) {
  if (given) tokens.postMessage(given);
  tokens.onmessage = (message) => {
    if (!tokenArrived || typeof message.data !== 'string' || !message.data || message.data === token) return;
    token = message.data;
    sessionStorage.setItem('widgets-token', token);
    tokenArrived();
  };
}

function authorized(options) {
  const headers = Object.assign({}, (options && options.headers) || {}, { Authorization: 'Bearer ' + token });
  return Object.assign({}, options || {}, { headers, credentials: 'omit', cache: 'no-store' });
}

function post(path, body) {
  return fetch(path, authorized({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }))
    .then(async (response) => {
      const answer = await response.json().catch(() => ({ ok: false, error: response.status + ' ' + response.statusText }));
      if (!response.ok || answer.ok === false) throw new Error(answer.error || response.statusText);
      return answer;
    });
}

function toast(text, bad) {
  const element = document.getElementById('toast');
  element.textContent = text;
  element.classList.toggle('bad', !!bad);
  element.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { element.hidden = true; }, 4000);
}

function two(n) { return n < 10 ? '0' + n : '' + n; }
function clockTime(seconds) { const d = new Date(seconds * 1000); return two(d.getHours()) + ':' + two(d.getMinutes()); }

// As the host formats them (DateText): "2 hr, 5 min", "+2 hours", "2:05:09".
function relative(seconds) {
  const total = Math.floor(Math.min(seconds, 1e12));
  const units = [[86400, 'day', 'days'], [3600, 'hr', 'hr'], [60, 'min', 'min'], [1, 'sec', 'sec']];
  const named = (count, unit) => count + ' ' + (count === 1 ? unit[1] : unit[2]);
  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    if (total < unit[0]) continue;
    let text = named(Math.floor(total / unit[0]), unit);
    if (i + 1 < units.length) {
      const next = units[i + 1];
      const second = Math.floor((total % unit[0]) / next[0]);
      if (second > 0) text += ', ' + named(second, next);
    }
    return text;
  }
  return '0 sec';
}
function offsetText(seconds) {
  const sign = seconds < 0 ? '-' : '+';
  const magnitude = Math.floor(Math.min(Math.abs(seconds), 1e12));
  for (const [size, name] of [[86400, 'day'], [3600, 'hour'], [60, 'minute']]) {
    if (magnitude >= size) { const count = Math.floor(magnitude / size); return sign + count + ' ' + name + (count === 1 ? '' : 's'); }
  }
  return sign + magnitude + ' second' + (magnitude === 1 ? '' : 's');
}
function timer(seconds, showsHours) {
  const total = Math.floor(Math.min(Math.max(seconds, 0), 1e12));
  if (showsHours && total >= 3600) return Math.floor(total / 3600) + ':' + two(Math.floor(total % 3600 / 60)) + ':' + two(total % 60);
  return Math.floor(total / 60) + ':' + two(total % 60);
}
function part(p, now) {
  if (typeof p === 'string') return p;
  if ('from' in p) {
    const length = p.to - p.from;
    const shown = p.down === false ? Math.min(Math.max(now - p.from, 0), length) : Math.min(Math.max(p.to - now, 0), length);
    return timer(shown, p.hours !== false);
  }
  if ('relative' in p) return relative(Math.abs(p.relative - now));
  if ('offset' in p) return offsetText(p.offset - now);
  if ('timer' in p) return timer(Math.abs(p.timer - now), true);
  return '';
}

function tick() {
  const now = Date.now() / 1000 + offset;
  for (const text of screen.querySelectorAll('text[data-live]')) {
    if (!text.liveParts) text.liveParts = JSON.parse(text.getAttribute('data-live'));
    const shown = text.liveParts.map((p) => part(p, now)).join('');
    if (text.textContent !== shown) text.textContent = shown;
  }
  // A timer's progress bar: its share of the interval passed (or left), of the whole width.
  for (const bar of screen.querySelectorAll('rect[data-live-bar]')) {
    if (!bar.liveInterval) bar.liveInterval = JSON.parse(bar.getAttribute('data-live-bar'));
    const p = bar.liveInterval;
    const passed = Math.min(1, Math.max(0, (now - p.from) / (p.to - p.from)));
    const width = Number(bar.getAttribute('data-width')) * (p.down === false ? passed : 1 - passed);
    bar.setAttribute('width', width.toFixed(1));
  }
}

// Wakes once a second only while something on the screen changes with time.
function schedule() {
  if (ticking !== null || !screen.querySelector('text[data-live], rect[data-live-bar]')) return;
  const step = () => {
    ticking = null;
    tick();
    schedule();
  };
  ticking = setTimeout(step, 1000 - (Date.now() % 1000) + 5);
}

function describe(card) {
  const lines = [card.kind + ' · ' + card.family];
  if (card.failure) lines.push('Last reload failed: ' + card.failure);
  if (card.unknownSymbols) lines.push('Not drawn here (□ stands in): ' + card.unknownSymbols.join(', '));
  if (card.nextReload) lines.push('Next reload ' + clockTime(card.nextReload) + (card.reason ? ' (' + card.reason + ')' : '') + (card.deferred ? ', deferred by the budget' : ''));
  return lines.join('\n');
}

function show(card) {
  let entry = cards.get(card.id);
  if (!entry) {
    const element = document.createElement('div');
    element.dataset.id = card.id;
    element.draggable = true;
    element.tabIndex = 0;
    element.innerHTML = '<div class="widget"></div><div class="caption"><span class="title"></span><span class="badge"></span></div>'
      + '<div class="actions"><button type="button" class="move" data-move="-1" aria-label="Move earlier">◀</button>'
      + '<button type="button" class="edit">Edit Widget</button><button type="button" class="remove">Remove</button>'
      + '<button type="button" class="move" data-move="1" aria-label="Move later">▶</button></div>';
    entry = { element };
    cards.set(card.id, entry);
    place(element, card.family);
  }
  entry.card = card;
  const element = entry.element;
  element.className = 'card family-' + card.family + ' phase-' + card.phase;
  const widget = element.querySelector('.widget');
  widget.style.width = card.width + 'px';
  widget.style.height = card.height + 'px';
  if (card.light) {
    widget.innerHTML = '<div class="light">' + card.light + '</div><div class="dark">' + card.dark + '</div>';
  } else {
    widget.innerHTML = '<div class="placeholder"></div>';
    widget.firstChild.textContent = card.phase === 'bundleMissing' ? 'Bundle missing' : '';
  }
  element.querySelector('.title').textContent = card.title;
  element.setAttribute('aria-label', card.title + ' widget');
  element.querySelector('.edit').hidden = !card.configurable;
  const badge = element.querySelector('.badge');
  badge.textContent = card.asOf ? 'as of ' + clockTime(card.asOf) : '';
  element.title = describe(card);
  offset = card.now - Date.now() / 1000;
  tick();
  schedule();
}

function arrange(order) {
  for (const id of order) { const entry = cards.get(id); if (entry) place(entry.element, entry.card ? entry.card.family : ''); }
  for (const [id, entry] of cards) { if (!order.includes(id)) { entry.element.remove(); cards.delete(id); } }
  lock.hidden = !lock.querySelector('.card');
  document.getElementById('empty').hidden = cards.size > 0;
}

// Live Activities: their Lock Screen presentation, updated in place, in an area of their own
// above the widgets (as iOS shows them above the Lock Screen's notifications).
const activityArea = document.getElementById('activities');
const activities = new Map();
function showActivity(activity) {
  let element = activities.get(activity.id);
  if (!element) {
    element = document.createElement('div');
    element.className = 'activity';
    element.dataset.id = activity.id;
    element.innerHTML = '<div class="widget"></div><div class="caption"><span class="title"></span><span class="badge"></span></div>';
    activities.set(activity.id, element);
    activityArea.appendChild(element);
  }
  element.classList.toggle('stale', activity.stale);
  element.classList.toggle('ended', activity.phase === 'ended');
  const widget = element.querySelector('.widget');
  widget.style.width = activity.width + 'px';
  widget.style.height = activity.height + 'px';
  if (activity.light) widget.innerHTML = '<div class="light">' + activity.light + '</div><div class="dark">' + activity.dark + '</div>';
  element.querySelector('.title').textContent = activity.type + (activity.compact ? ' · ' + activity.compact : '');
  element.querySelector('.badge').textContent = activity.phase === 'active' ? '' : activity.phase;
  element.title = activity.failure || '';
  activityArea.hidden = activities.size === 0;
}
function removeActivity(id) {
  const element = activities.get(id);
  if (element) { element.remove(); activities.delete(id); }
  activityArea.hidden = activities.size === 0;
}

// Controls: buttons and toggles, as Control Center shows them; a press goes to the host.
const controlArea = document.getElementById('controls');
const controls = new Map();
function showControl(control) {
  let element = controls.get(control.kind);
  if (!element) {
    element = document.createElement('button');
    element.type = 'button';
    element.className = 'control';
    element.dataset.kind = control.kind;
    controls.set(control.kind, element);
    controlArea.appendChild(element);
  }
  element.textContent = control.text;
  element.title = control.failure || control.name;
  element.disabled = control.disabled;
  element.classList.toggle('failed', !!control.failure);
  if (control.template === 'toggle') element.setAttribute('aria-pressed', String(control.isOn));
  else element.removeAttribute('aria-pressed');
  controlArea.hidden = controls.size === 0;
}
controlArea.addEventListener('click', (event) => {
  const element = event.target.closest('button.control');
  if (!element) return;
  post('/controls/press', { kind: element.dataset.kind })
    .then((answer) => { for (const control of answer.controls || []) if (control.control) toast('“' + control.name + '” done'); })
    .catch((error) => toast(error.message, true));
});

const handlers = {
  hello(data) {
    const hello = JSON.parse(data);
    for (const card of hello.cards) show(card);
    arrange(hello.order);
    for (const id of [...activities.keys()]) if (!hello.activities.some((activity) => activity.id === id)) removeActivity(id);
    for (const activity of hello.activities) showActivity(activity);
    for (const control of hello.controls) showControl(control);
    if (editFirst) {
      const wanted = hello.cards.find((card) => card.id === editFirst);
      editFirst = null;
      if (wanted && wanted.configurable) edit(wanted.id);
    }
    const status = document.getElementById('connection');
    status.textContent = 'live';
    status.classList.remove('lost');
    if (reconnected) toast(reconnected[0].toUpperCase() + reconnected.slice(1));
    reconnected = null;
  },
  card(data) { show(JSON.parse(data)); },
  activity(data) { showActivity(JSON.parse(data)); },
  'activity-removed'(data) { removeActivity(JSON.parse(data).id); },
  control(data) { showControl(JSON.parse(data)); },
  order(data) { arrange(JSON.parse(data).order); },
  removed(data) {
    const id = JSON.parse(data).id;
    const entry = cards.get(id);
    if (entry) { entry.element.remove(); cards.delete(id); }
    lock.hidden = !lock.querySelector('.card');
    document.getElementById('empty').hidden = cards.size > 0;
  },
};

// The event stream (Server-Sent Events), read with fetch so that it carries the token:
// EventSource sends no header. Blocks end at an empty line; a block's "event:" names it and
// its "data:" lines, joined, are its data. A lost stream is opened again, a second later at
// most (the host restarting comes back at the same address); a token the host no longer takes
// is waited for from a page opened with the new one.
function newToken() {
  return new Promise((resolve) => { tokenArrived = () => { tokenArrived = null; resolve(); }; });
}

async function connect() {
  const status = document.getElementById('connection');
  let pause = 250;
  for (;;) {
    if (!token) {
      status.textContent = 'this page needs its token: open it with "widgets home"';
      status.classList.add('lost');
      await newToken();
      continue;
    }
    try {
      const response = await fetch('/events', authorized());
      if (response.status === 403) {
        status.textContent = 'the host\'s token changed: open the page again with "widgets home" (this tab then follows)';
        status.classList.add('lost');
        await newToken();
        reconnected = 'signed in again with the host\'s new token';
        continue;
      }
      if (!response.ok || !response.body) throw new Error(response.status + ' ' + response.statusText);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message';
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
          }
          if (handlers[name]) handlers[name](data.join('\n'));
          pause = 250;
        }
      }
    } catch (error) {
      // Lost: said below, then tried again.
    }
    status.textContent = 'reconnecting to the host…';
    status.classList.add('lost');
    reconnected = reconnected || 'reconnected';
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 1000);
  }
}

// Taps: links and the widget's URL open through the bundle; buttons and toggles perform
// their intents. Nothing navigates the page.
screen.addEventListener('click', (event) => {
  const element = event.target.closest('.card');
  if (!element) return;
  const id = element.dataset.id;
  if (event.target.closest('button.edit')) return edit(id);
  if (event.target.closest('button.remove')) return remove(id);
  const move = event.target.closest('button.move');
  if (move) return moveCard(id, Number(move.dataset.move));
  const target = event.target.closest('a, [data-button]');
  if (!target) return;
  event.preventDefault();
  if (document.body.classList.contains('editing') || longPressed) return;
  const body = { instance: id };
  if (target.hasAttribute('data-button')) body.button = Number(target.getAttribute('data-button'));
  else if (target.hasAttribute('data-link')) body.link = Number(target.getAttribute('data-link'));
  post('/tap', body)
    .then((answer) => {
      // Said as the person saw it: the button's own label, not the intent's type.
      const label = target.textContent.replace(/\s+/g, ' ').trim();
      toast(answer.performed ? (label ? '“' + label + '” done' : 'Done') : 'Opened ' + answer.opened + ' in ' + answer.bundle);
    })
    .catch((error) => toast(error.message, true));
});

// Moving a card a place earlier or later: what dragging does, for a keyboard and a finger.
function moveCard(id, step) {
  const order = [...screen.querySelectorAll('.card')].map((card) => card.dataset.id);
  const from = order.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= order.length) return;
  order.splice(from, 1);
  order.splice(to, 0, id);
  post('/order', { order })
    .then(() => { const entry = cards.get(id); if (entry) entry.element.querySelector('button.move[data-move="' + step + '"]').focus(); })
    .catch((error) => toast(error.message, true));
}

function remove(id) {
  const entry = cards.get(id);
  if (!confirm('Remove ' + (entry ? entry.card.title : id) + '?')) return;
  post('/instances/' + encodeURIComponent(id) + '/remove', {}).catch((error) => toast(error.message, true));
}

// Reordering by dragging; the order is kept in the host's instance store.
let dragged = null;
screen.addEventListener('dragstart', (event) => {
  const element = event.target.closest('.card');
  if (!element) return;
  dragged = element.dataset.id;
  element.classList.add('dragging');
  event.dataTransfer.effectAllowed = 'move';
  event.dataTransfer.setData('text/plain', dragged);
});
screen.addEventListener('dragend', (event) => {
  for (const element of screen.querySelectorAll('.dragging, .drop-before')) element.classList.remove('dragging', 'drop-before');
  dragged = null;
});
screen.addEventListener('dragover', (event) => {
  const element = event.target.closest('.card');
  if (!dragged || !element) return;
  event.preventDefault();
  for (const other of screen.querySelectorAll('.drop-before')) if (other !== element) other.classList.remove('drop-before');
  element.classList.add('drop-before');
});
screen.addEventListener('drop', (event) => {
  const element = event.target.closest('.card');
  if (!dragged || !element) return;
  event.preventDefault();
  const order = [...screen.querySelectorAll('.card')].map((card) => card.dataset.id).filter((id) => id !== dragged);
  order.splice(order.indexOf(element.dataset.id), 0, dragged);
  post('/order', { order }).catch((error) => toast(error.message, true));
});

// "Edit Widget": the instance's parameters, saved through the host's validation.
const editor = document.getElementById('editor');
let editing = null;
function edit(id) {
  fetch('/instances/' + encodeURIComponent(id) + '/edit', authorized())
    .then((response) => response.json())
    .then((answer) => {
      if (answer.ok === false) throw new Error(answer.error);
      editing = id;
      document.getElementById('editor-title').textContent = answer.title || 'Edit Widget';
      document.getElementById('editor-description').textContent = answer.description || '';
      document.getElementById('editor-error').hidden = true;
      const fields = document.getElementById('editor-fields');
      fields.textContent = '';
      for (const parameter of answer.parameters) fields.appendChild(field(parameter));
      editor.showModal();
    })
    .catch((error) => toast(error.message, true));
}
function field(parameter) {
  const row = document.createElement('label');
  row.className = 'field';
  const title = document.createElement('span');
  title.textContent = parameter.title;
  row.appendChild(title);
  let control;
  const choices = parameter.choices || (parameter.type === 'boolean' ? [{ value: 'true', title: 'On' }, { value: 'false', title: 'Off' }] : null);
  if (choices && parameter.list) {
    // A list: several choices, sent as their values separated by commas.
    control = document.createElement('select');
    control.multiple = true;
    const chosen = parameter.value ? parameter.value.split(',') : [];
    for (const choice of choices) control.appendChild(new Option(choice.title, choice.value, false, chosen.includes(String(choice.value))));
    control.name = parameter.name;
    row.appendChild(control);
    return row;
  } else if (choices) {
    control = document.createElement('select');
    if (parameter.optional) control.appendChild(new Option('None', ''));
    for (const choice of choices) control.appendChild(new Option(choice.title, choice.value));
    if (parameter.value && !choices.some((choice) => choice.value === parameter.value)) control.appendChild(new Option(parameter.value, parameter.value));
  } else {
    control = document.createElement('input');
    control.type = { integer: 'number', double: 'number', url: 'url' }[parameter.type] || 'text';
    if (parameter.type === 'double') control.step = 'any';
    if (parameter.range) { control.min = parameter.range[0]; control.max = parameter.range[1]; }
    if (parameter.type === 'date') control.placeholder = '2026-11-21T09:30:00Z';
  }
  control.name = parameter.name;
  control.value = parameter.value;
  row.appendChild(control);
  return row;
}
document.getElementById('editor-cancel').addEventListener('click', () => editor.close());
document.getElementById('editor-save').addEventListener('click', () => {
  const values = {};
  for (const control of document.querySelectorAll('#editor-fields [name]')) {
    values[control.name] = control.multiple ? Array.from(control.selectedOptions, (option) => option.value).join(',') : control.value;
  }
  post('/instances/' + encodeURIComponent(editing) + '/configure', { values })
    .then(() => editor.close())
    .catch((error) => {
      const message = document.getElementById('editor-error');
      message.textContent = error.message;
      message.hidden = false;
    });
});

// "Add Widget", as iOS's widget gallery: a searchable list of widgets; the one chosen shows its
// sizes one at a time (a pager, as a new instance would draw each) and is added in the size shown.
const familyNames = {
  systemSmall: 'Small', systemMedium: 'Medium', systemLarge: 'Large', systemExtraLarge: 'Extra Large',
  accessoryCircular: 'Circular', accessoryRectangular: 'Rectangular', accessoryInline: 'Inline',
};
const gallery = document.getElementById('gallery');
const galleryList = document.getElementById('gallery-widgets');
const gallerySearch = document.getElementById('gallery-search');
const galleryDetail = document.getElementById('gallery-detail');
let galleryWidgets = [];
let chosen = null;  // { widget, pages, page }

function listWidgets() {
  const query = gallerySearch.value.trim().toLowerCase();
  galleryList.textContent = '';
  const found = galleryWidgets.filter((widget) => !query
    || [widget.title, widget.description, widget.kind].some((text) => (text || '').toLowerCase().includes(query)));
  for (const widget of found) {
    const item = document.createElement('button');
    item.type = 'button';
    item.className = 'gallery-item';
    item.setAttribute('role', 'listitem');
    item.dataset.kind = widget.kind;
    item.innerHTML = '<span class="name"></span><span class="about"></span><span class="sizes"></span>';
    item.querySelector('.name').textContent = widget.title;
    item.querySelector('.about').textContent = widget.description || '';
    item.querySelector('.sizes').textContent = widget.families.map((family) => familyNames[family.family] || family.family).join(' · ');
    item.addEventListener('click', () => choose(widget));
    galleryList.appendChild(item);
  }
  if (!found.length) {
    const none = document.createElement('p');
    none.className = 'description';
    none.textContent = galleryWidgets.length ? 'No widget matches "' + gallerySearch.value.trim() + '".' : 'No widgets are loaded.';
    galleryList.appendChild(none);
  }
}

function choose(widget) {
  const pages = widget.families.map((family) => ({ family: family.family, caption: familyNames[family.family] || family.family, light: family.light, dark: family.dark }))
    .concat((widget.previews || []).map((preview) => ({ family: preview.family, caption: (familyNames[preview.family] || preview.family) + ' · ' + preview.name, light: preview.light, dark: preview.dark })));
  chosen = { widget, pages, page: 0 };
  document.getElementById('detail-title').textContent = widget.title;
  document.getElementById('detail-description').textContent = widget.description || '';
  galleryList.hidden = true;
  gallerySearch.hidden = true;
  galleryDetail.hidden = false;
  showPage(0);
  document.getElementById('gallery-add').focus();
}

function showPage(index) {
  if (!chosen || !chosen.pages.length) return;
  chosen.page = Math.max(0, Math.min(chosen.pages.length - 1, index));
  const page = chosen.pages[chosen.page];
  const figure = document.getElementById('pager-page');
  figure.dataset.family = page.family;
  figure.querySelector('.widget').innerHTML = '<div class="light">' + (page.light || '') + '</div><div class="dark">' + (page.dark || '') + '</div>';
  figure.querySelector('figcaption').textContent = page.caption;
  document.getElementById('pager-previous').disabled = chosen.page === 0;
  document.getElementById('pager-next').disabled = chosen.page === chosen.pages.length - 1;
  const dots = document.getElementById('pager-dots');
  dots.textContent = '';
  chosen.pages.forEach((_, number) => {
    const dot = document.createElement('span');
    if (number === chosen.page) dot.className = 'current';
    dots.appendChild(dot);
  });
}

function backToList() {
  chosen = null;
  galleryDetail.hidden = true;
  galleryList.hidden = false;
  gallerySearch.hidden = false;
  gallerySearch.focus();
}

document.getElementById('add').addEventListener('click', () => {
  backToList();
  gallerySearch.value = '';
  galleryList.innerHTML = '<p class="description">Loading…</p>';
  gallery.showModal();
  gallerySearch.focus();
  fetch('/widgets', authorized())
    .then((response) => response.json())
    .then((answer) => { galleryWidgets = answer.widgets || []; listWidgets(); })
    .catch((error) => toast(error.message, true));
});
gallerySearch.addEventListener('input', listWidgets);
document.getElementById('gallery-back').addEventListener('click', backToList);
document.getElementById('pager-previous').addEventListener('click', () => showPage(chosen.page - 1));
document.getElementById('pager-next').addEventListener('click', () => showPage(chosen.page + 1));
// Nothing in a drawing navigates.
document.getElementById('pager-page').addEventListener('click', (event) => event.preventDefault());
galleryDetail.addEventListener('keydown', (event) => {
  if (event.key === 'ArrowLeft') { showPage(chosen.page - 1); event.preventDefault(); }
  if (event.key === 'ArrowRight') { showPage(chosen.page + 1); event.preventDefault(); }
});
document.getElementById('gallery-add').addEventListener('click', () => {
  if (!chosen) return;
  const page = chosen.pages[chosen.page];
  post('/instances', { kind: chosen.widget.kind, family: page.family })
    .then((added) => { gallery.close(); toast('Added ' + chosen.widget.title + ' (' + (familyNames[page.family] || page.family) + ')'); })
    .catch((error) => toast(error.message, true));
});
document.getElementById('gallery-close').addEventListener('click', () => gallery.close());

// Edit mode, as iOS's: the Edit button (or a long press on a widget) shows every card's
// actions, where a keyboard and a finger reach them; Done (or Esc) ends it. Taps on widgets do
// nothing meanwhile.
const editButton = document.getElementById('edit-mode');
function setEditing(on) {
  document.body.classList.toggle('editing', on);
  editButton.setAttribute('aria-pressed', on ? 'true' : 'false');
  editButton.textContent = on ? 'Done' : 'Edit';
}
editButton.addEventListener('click', () => setEditing(!document.body.classList.contains('editing')));
document.addEventListener('keydown', (event) => {
  if (document.querySelector('dialog[open]')) return;
  if (event.key === 'Escape' && document.body.classList.contains('editing')) setEditing(false);
});
let pressing = null;
let longPressed = false;  // a long press just entered edit mode: the click it ends in is not a tap
screen.addEventListener('pointerdown', (event) => {
  // A new touch: whatever the last long press held back is over.
  longPressed = false;
  if (!event.target.closest('.card') || event.target.closest('.actions')) return;
  clearTimeout(pressing);
  pressing = setTimeout(() => { pressing = null; setEditing(true); longPressed = true; }, 500);
});
for (const name of ['pointerup', 'pointercancel', 'pointerleave']) {
  screen.addEventListener(name, () => { clearTimeout(pressing); pressing = null; });
}

connect();
