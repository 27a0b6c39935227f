/// The home screen's page, its style and its script: static text, served as they are. What the
/// page shows comes from its event stream (`/events`); what it does goes through the host's
/// endpoints (docs/WEB.md).
enum HomePage {
    /// Scripts only from this server (never inline, never a `javascript:` URL a bundle's link
    /// might carry), nothing loaded from elsewhere, no framing.
    static let policy: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        )
    ]

    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Widgets</title>
        <link rel="stylesheet" href="/home.css">
        <script src="/home.js" defer></script>
        </head>
        <body>
        <header>
        <h1>Widgets</h1>
        <span id="connection" class="connection">connecting…</span>
        <button id="add" type="button">Add Widget</button>
        </header>
        <main id="screen" aria-live="polite">
        <section id="lock" class="lock-screen" aria-label="Lock Screen" hidden></section>
        <section id="home" class="home-grid" aria-label="Home Screen"></section>
        </main>
        <p id="empty" class="empty" hidden>No widgets yet. Choose <b>Add Widget</b>, or run <code>widgets add KIND</code>.</p>
        <div id="toast" class="toast" role="status" hidden></div>
        <dialog id="editor">
        <h2 id="editor-title">Edit Widget</h2>
        <p id="editor-description" class="description"></p>
        <div id="editor-fields"></div>
        <p id="editor-error" class="error" hidden></p>
        <div class="buttons"><button type="button" id="editor-cancel">Cancel</button><button type="button" id="editor-save" class="primary">Done</button></div>
        </dialog>
        <dialog id="gallery">
        <h2>Add Widget</h2>
        <div id="gallery-widgets"><p>Loading…</p></div>
        <div class="buttons"><button type="button" id="gallery-close">Close</button></div>
        </dialog>
        </body>
        </html>

        """

    static let style = """
        /* The font the widgets are measured in (Inter, standing in for SF Pro), from the host when
           the browser has no copy of its own: the drawn widths are then the measured ones. */
        @font-face { font-family: 'Inter'; font-weight: 400; src: local('Inter Regular'), url('/fonts/Inter-Regular.otf') format('opentype'); }
        @font-face { font-family: 'Inter'; font-weight: 500; src: local('Inter Medium'), url('/fonts/Inter-Medium.otf') format('opentype'); }
        @font-face { font-family: 'Inter'; font-weight: 600; src: local('Inter SemiBold'), url('/fonts/Inter-SemiBold.otf') format('opentype'); }
        @font-face { font-family: 'Inter'; font-weight: 700; src: local('Inter Bold'), url('/fonts/Inter-Bold.otf') format('opentype'); }
        @font-face { font-family: 'Inter Display'; font-weight: 400; src: local('Inter Display Regular'), url('/fonts/InterDisplay-Regular.otf') format('opentype'); }
        @font-face { font-family: 'Inter Display'; font-weight: 500; src: local('Inter Display Medium'), url('/fonts/InterDisplay-Medium.otf') format('opentype'); }
        @font-face { font-family: 'Inter Display'; font-weight: 600; src: local('Inter Display SemiBold'), url('/fonts/InterDisplay-SemiBold.otf') format('opentype'); }
        @font-face { font-family: 'Inter Display'; font-weight: 700; src: local('Inter Display Bold'), url('/fonts/InterDisplay-Bold.otf') format('opentype'); }
        :root { color-scheme: light dark; --page: #f2f2f7; --ink: #000; --quiet: #6e6e73; --panel: #fff; --accent: #007aff; --bad: #ff3b30; }
        @media (prefers-color-scheme: dark) { :root { --page: #000; --ink: #fff; --quiet: #98989d; --panel: #1c1c1e; --accent: #0a84ff; --bad: #ff453a; } }
        body { margin: 0; font-family: -apple-system, system-ui, sans-serif; background: var(--page); color: var(--ink); }
        header { display: flex; align-items: baseline; gap: 1em; padding: 1em 2em 0.5em; }
        h1 { margin: 0; font-size: 1.6em; }
        .connection { color: var(--quiet); font-size: 0.85em; flex: 1; }
        .connection.lost { color: var(--bad); }
        button { font: inherit; border: 0; border-radius: 8px; padding: 0.35em 0.9em; background: var(--panel); color: var(--accent); cursor: pointer; }
        button.primary { background: var(--accent); color: #fff; }
        #screen { padding: 1em clamp(8px, 4vw, 2em) 3em; }
        /* As iOS lays out a home screen: columns of a small widget's width, never squeezed below it,
           22 points apart, rows 196 points apart (a widget and its name). */
        .home-grid { display: grid; grid-template-columns: repeat(auto-fill, 158px); grid-auto-rows: 184px; gap: 12px 22px;
          grid-auto-flow: dense; justify-content: center; }
        /* Lock Screen widgets are shown where iOS shows them: a row of their own above the time's
           place, not in the home screen's grid. */
        .lock-screen { display: flex; flex-wrap: wrap; justify-content: center; align-items: flex-start; gap: 12px 16px;
          margin: 0 auto 1.5em; padding: 1em; max-width: 40em; border-radius: 22px; background: var(--panel); }
        .lock-screen .card { flex: none; }
        .lock-screen[hidden] { display: none; }
        .card { position: relative; display: flex; flex-direction: column; align-items: center; min-width: 0; }
        .card.family-systemMedium, .card.family-accessoryRectangular, .card.family-accessoryInline { grid-column: span 2; }
        .card.family-systemLarge { grid-column: span 2; grid-row: span 2; }
        .card.family-systemExtraLarge { grid-column: span 4; grid-row: span 2; }
        .card.dragging { opacity: 0.4; }
        .card.drop-before { outline: 2px dashed var(--accent); outline-offset: 4px; border-radius: 22px; }
        .widget { position: relative; max-width: 100%; }
        /* A view's blendMode, which the drawing marks by class: the page allows no inline style. */
        .blend-multiply { mix-blend-mode: multiply; }
        .blend-screen { mix-blend-mode: screen; }
        .blend-overlay { mix-blend-mode: overlay; }
        .blend-darken { mix-blend-mode: darken; }
        .blend-lighten { mix-blend-mode: lighten; }
        .blend-color-dodge { mix-blend-mode: color-dodge; }
        .blend-color-burn { mix-blend-mode: color-burn; }
        .blend-soft-light { mix-blend-mode: soft-light; }
        .blend-hard-light { mix-blend-mode: hard-light; }
        .blend-difference { mix-blend-mode: difference; }
        .blend-exclusion { mix-blend-mode: exclusion; }
        .blend-hue { mix-blend-mode: hue; }
        .blend-saturation { mix-blend-mode: saturation; }
        .blend-color { mix-blend-mode: color; }
        .blend-luminosity { mix-blend-mode: luminosity; }
        .blend-plus-lighter { mix-blend-mode: plus-lighter; }
        .blend-plus-darker { mix-blend-mode: plus-darker; }
        .widget svg { isolation: isolate; }
        .widget svg { display: block; max-width: 100%; height: auto; }
        .widget a, .widget [data-button] { cursor: pointer; }
        .dark { display: none; }
        @media (prefers-color-scheme: dark) { .light { display: none; } .dark { display: block; } }
        .placeholder { width: 100%; height: 100%; border-radius: 22px; background: var(--panel);
          background-image: linear-gradient(90deg, transparent, rgba(128,128,128,0.12), transparent); background-size: 200% 100%;
          animation: shimmer 1.6s linear infinite; display: flex; align-items: center; justify-content: center; color: var(--quiet); font-size: 0.85em; text-align: center; }
        .family-accessoryCircular .placeholder { border-radius: 50%; }
        @keyframes shimmer { from { background-position: 100% 0; } to { background-position: -100% 0; } }
        @media (prefers-reduced-motion: reduce) { .placeholder { animation: none; } }
        .caption { margin-top: 6px; font-size: 0.8em; color: var(--quiet); display: flex; gap: 0.5em; align-items: center; max-width: 100%; }
        .caption .title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .badge { border-radius: 6px; padding: 0 0.4em; background: var(--bad); color: #fff; white-space: nowrap; }
        .badge:empty { display: none; }
        .actions { position: absolute; top: -10px; right: -10px; display: none; gap: 4px; }
        .card:hover .actions, .card:focus-within .actions { display: flex; }
        .actions button { font-size: 0.75em; padding: 0.2em 0.6em; box-shadow: 0 1px 4px rgba(0,0,0,0.25); }
        .actions button.remove { color: var(--bad); }
        .empty { text-align: center; color: var(--quiet); }
        .toast { position: fixed; bottom: 1.5em; left: 50%; transform: translateX(-50%); background: var(--panel); color: var(--ink);
          padding: 0.6em 1.2em; border-radius: 10px; box-shadow: 0 2px 12px rgba(0,0,0,0.3); max-width: 80vw; }
        .toast.bad { color: var(--bad); }
        dialog { border: 0; border-radius: 14px; background: var(--page); color: var(--ink); min-width: 22em; max-width: min(60em, 92vw); max-height: 86vh; }
        dialog::backdrop { background: rgba(0,0,0,0.4); }
        dialog h2 { margin-top: 0; }
        .description { color: var(--quiet); }
        .field { display: grid; grid-template-columns: 10em 1fr; gap: 0.8em; align-items: center; margin: 0.6em 0; }
        .field input, .field select { font: inherit; padding: 0.3em; border-radius: 6px; border: 1px solid var(--quiet); background: var(--page); color: var(--ink); }
        .error { color: var(--bad); }
        .buttons { display: flex; justify-content: flex-end; gap: 0.6em; margin-top: 1em; }
        .choice { margin: 1.2em 0; }
        .choice h3 { margin: 0; }
        .families { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-end; margin-top: 0.6em; }
        .families figure { margin: 0; text-align: center; }
        .families figcaption { font-size: 0.8em; color: var(--quiet); margin: 0.3em 0; }

        """

    static let script = #"""
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

        // The token: from the address's fragment (which the browser sends nowhere), kept in this
        // tab's session storage (this origin's alone: another port is another origin, and a cookie
        // would go to every port), and sent in a header with every request.
        const token = (() => {
          const given = new URLSearchParams(location.hash.slice(1)).get('token');
          if (given) {
            sessionStorage.setItem('widgets-token', given);
            history.replaceState(null, '', location.pathname);
          }
          return sessionStorage.getItem('widgets-token') || '';
        })();

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
          if (card.nextReload) lines.push('Next reload ' + clockTime(card.nextReload) + (card.reason ? ' (' + card.reason + ')' : '') + (card.deferred ? ', deferred by the budget' : ''));
          return lines.join('\n');
        }

        function show(card) {
          let entry = cards.get(card.id);
          if (!entry) {
            const element = document.createElement('div');
            element.dataset.id = card.id;
            element.draggable = true;
            element.innerHTML = '<div class="widget"></div><div class="caption"><span class="title"></span><span class="badge"></span></div>'
              + '<div class="actions"><button type="button" class="edit">Edit Widget</button><button type="button" class="remove">Remove</button></div>';
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

        const handlers = {
          hello(data) {
            const hello = JSON.parse(data);
            for (const card of hello.cards) show(card);
            arrange(hello.order);
            const status = document.getElementById('connection');
            status.textContent = 'live';
            status.classList.remove('lost');
          },
          card(data) { show(JSON.parse(data)); },
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
        // its "data:" lines, joined, are its data. A lost stream is opened again, after a pause.
        async function connect() {
          const status = document.getElementById('connection');
          if (!token) {
            status.textContent = 'this page needs its token: open it with "widgets home"';
            status.classList.add('lost');
            return;
          }
          let pause = 500;
          for (;;) {
            try {
              const response = await fetch('/events', authorized());
              if (response.status === 403) {
                status.textContent = 'the host refused the token: open this page with "widgets home"';
                status.classList.add('lost');
                return;
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
                  pause = 500;
                }
              }
            } catch (error) {
              // Lost: said below, then tried again.
            }
            status.textContent = 'reconnecting to the host…';
            status.classList.add('lost');
            await new Promise((resolve) => setTimeout(resolve, pause));
            pause = Math.min(pause * 2, 10000);
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
          const target = event.target.closest('a, [data-button]');
          if (!target) return;
          event.preventDefault();
          const body = { instance: id };
          if (target.hasAttribute('data-button')) body.button = Number(target.getAttribute('data-button'));
          else if (target.hasAttribute('data-link')) body.link = Number(target.getAttribute('data-link'));
          post('/tap', body)
            .then((answer) => toast(answer.performed ? 'Performed ' + answer.performed : 'Opened ' + answer.opened + ' in ' + answer.bundle))
            .catch((error) => toast(error.message, true));
        });

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

        // "Add Widget": every widget in every family, as a new instance would show.
        const gallery = document.getElementById('gallery');
        document.getElementById('add').addEventListener('click', () => {
          gallery.showModal();
          fetch('/widgets', authorized())
            .then((response) => response.json())
            .then((answer) => {
              const list = document.getElementById('gallery-widgets');
              list.textContent = '';
              for (const widget of answer.widgets) {
                const section = document.createElement('section');
                section.className = 'choice';
                section.innerHTML = '<h3></h3><p class="description"></p><div class="families"></div>';
                section.querySelector('h3').textContent = widget.title;
                section.querySelector('p').textContent = widget.description;
                const choices = widget.families.map((family) => ({ family: family.family, caption: family.family, light: family.light, dark: family.dark }))
                  .concat((widget.previews || []).map((preview) => ({ family: preview.family, caption: preview.family + ' · ' + preview.name, light: preview.light, dark: preview.dark })));
                for (const choice of choices) {
                  const figure = document.createElement('figure');
                  figure.innerHTML = '<div class="widget"><div class="light">' + (choice.light || '') + '</div><div class="dark">' + (choice.dark || '') + '</div></div>'
                    + '<figcaption></figcaption><button type="button" class="primary">Add</button>';
                  figure.querySelector('figcaption').textContent = choice.caption;
                  figure.querySelector('button').dataset.kind = widget.kind;
                  figure.querySelector('button').dataset.family = choice.family;
                  figure.querySelector('button').addEventListener('click', () => {
                    post('/instances', { kind: widget.kind, family: choice.family })
                      .then((added) => { gallery.close(); toast('Added ' + added.id); })
                      .catch((error) => toast(error.message, true));
                  });
                  // Nothing in a preview navigates.
                  figure.querySelector('.widget').addEventListener('click', (event) => event.preventDefault());
                  section.querySelector('.families').appendChild(figure);
                }
                list.appendChild(section);
              }
            })
            .catch((error) => toast(error.message, true));
        });
        document.getElementById('gallery-close').addEventListener('click', () => gallery.close());

        connect();

        """#
}
