/// The home screen's style: served as it is, from this server (its policy allows no other).
extension HomePage {
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
}
