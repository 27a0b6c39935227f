import CWayland
import FoundationEssentials
import Glibc
import WidgetRendering
import WidgetSupport
import WidgetWire

/// How `widgets desktop` places and draws the widgets.
public struct DesktopOptions: Sendable {
    /// The output's name (`swaymsg -t get_outputs`, `wlr-randr`); nil: the compositor chooses.
    public var output: String?
    public var anchor: DesktopAnchor = .topLeft
    public var margins = DesktopMargins(all: 24)
    public var columns = 2
    public var appearance: Appearance = .light
    /// Whether `appearance` is the desktop's, and follows it when it changes (neither an option nor
    /// the settings file gave it).
    public var followsDesktop = false
    /// Whether the Live Activities are shown (before the widgets) and the Controls (a tile after them).
    public var activities = true
    public var controls = true
    /// The host's control socket.
    public var socketPath: String
    /// WAYLAND_DISPLAY's form; nil: the environment's.
    public var waylandDisplay: String?
    /// DISPLAY's form, for X11 where there is no Wayland display; nil: the environment's.
    public var x11Display: String?
    /// Says what happens as it happens (the pointer coming, each drawing), for `-v` and the tests.
    public var debug = false
    /// Opens a URL the desktop's way (a right click opens the home screen's page).
    public var open: @Sendable (String) -> Void = { _ in }

    public init(socketPath: String) { self.socketPath = socketPath }
}

/// `widgets desktop`: every instance of the running host drawn on the desktop, below the windows
/// (a Wayland layer surface, or an X11 desktop window: `DesktopBackend`), kept live: a new entry is
/// drawn when the host says so, a timer's text each second (only its widget's rectangle), and a tap
/// reaches the bundle as one on the home screen does. The drawings are the SVG renderer's,
/// rasterized at the output's scale (see docs/DESKTOP.md).
public final class DesktopClient {
    private var options: DesktopOptions
    private let log: @Sendable (String) -> Void
    private let backend: any DesktopBackend
    private let feed: HostFeed
    private let rasterizer: Rasterizer
    private var renderer: SVGRenderer

    private var scale = 1
    private var instances: [ShownInstance] = []
    private var arrangement = DesktopArrangement([], columns: 2)
    private var hostAway = false
    /// The size in pixels of what was drawn last (the backend keeps what is shown).
    private var canvasSize = (width: 0, height: 0)
    /// The widgets to draw again, by id; all of them when `redrawAll`.
    private var dirty: Set<String> = []
    private var redrawAll = false
    /// Taps and the home screen's opening are sent from a thread of their own, never from the
    /// drawing thread (nor libdispatch's pool, whose monitor would wake the client every second
    /// from the first tap on).
    private let taps = SerialThread(named: "widgets-taps")

    /// Connects to the display (Wayland when there is one, `WAYLAND_DISPLAY`; else X11, `DISPLAY`) and
    /// the rasterizer; the error says what is missing (a library and its Debian package, the layer
    /// shell, any display at all).
    public init(options: DesktopOptions, log: @escaping @Sendable (String) -> Void) throws(DesktopError) {
        self.options = options
        self.log = log
        do {
            rasterizer = try Rasterizer.shared()
        } catch {
            throw DesktopError(error.description)
        }
        let environment = ProcessInfo.processInfo.environment
        if options.waylandDisplay == nil, options.x11Display == nil, (environment["WAYLAND_DISPLAY"] ?? "").isEmpty, (environment["DISPLAY"] ?? "").isEmpty {
            throw DesktopError(
                "no display to show the widgets on: neither WAYLAND_DISPLAY (a Wayland compositor) nor DISPLAY (an X server) is set; in a terminal with no desktop, 'widgets run' shows them")
        }
        // An explicit display wins; else Wayland where there is one (XWayland's DISPLAY too), else X11.
        let useX11 = options.waylandDisplay == nil && (options.x11Display != nil || (environment["WAYLAND_DISPLAY"] ?? "").isEmpty)
        if !useX11 {
            backend = try WaylandBackend(waylandDisplay: options.waylandDisplay, output: options.output, anchor: options.anchor, margins: options.margins)
        } else {
            // On X11 a monitor (RandR's, as xrandr --listmonitors names them); one window, so not all.
            let all = options.output == "all"
            if all { log("--output all: on X11 the widgets are in one window, on the primary monitor") }
            backend = try X11Backend(display: options.x11Display, output: all ? nil : options.output, anchor: options.anchor, margins: options.margins)
        }
        feed = try HostFeed(socketPath: options.socketPath, activities: options.activities, controls: options.controls)
        renderer = SVGRenderer(appearance: options.appearance)
        handleBackendEvents()
    }

    /// Runs until the display goes away (thrown) or, `stoppingOnSignals`, SIGINT or SIGTERM comes.
    public func run(stoppingOnSignals: Bool) throws(DesktopError) {
        if stoppingOnSignals { wd_catch_termination(feed.wake) }
        feed.start()
        let feed = self.feed
        var watcher: Subprocess?
        if options.followsDesktop {
            switch DesktopAppearance.follow({ feed.postAppearance($0) }, ended: { feed.postMessage("no longer following the desktop's light or dark: \($0)") }) {
            case .success(let started): watcher = started
            case .failure(let failure): log("not following the desktop's light or dark: \(failure)")
            }
        }
        defer {
            if stoppingOnSignals { wd_catch_termination(-1) }
            feed.stop()
            watcher?.terminate()
        }
        // Named (after the feed's thread is made, which would inherit the name), and its id said,
        // so that its wakeups can be told from the process's others (`make bench`).
        wd_name_thread("widgets-desktop")
        if options.debug { log("drawing on thread \(wd_thread_id())") }
        while !(stoppingOnSignals && wd_termination_requested() != 0) {
            let woken = try backend.dispatch(wake: feed.wake, timeout: nextTick())
            if woken { takeNews() }
            handleBackendEvents()
            tickLiveWidgets()
            try draw()
        }
    }

    private func handleBackendEvents() {
        for event in backend.takeEvents() {
            switch event {
            case .redrawAll: redrawAll = true
            case .click(let x, let y, let primary):
                if primary { tap(x: x, y: y) } else { openHome(editing: arrangement.widget(at: x, y)?.id) }
            case .note(let text, let debug):
                if !debug || options.debug { log(text) }
            }
        }
    }

    // MARK: - News

    private func takeNews() {
        let news = feed.take()
        for message in news.messages { log(message) }
        if let scheme = news.appearance {
            let appearance = scheme ?? .light
            if appearance != options.appearance {
                options.appearance = appearance
                renderer = SVGRenderer(appearance: appearance)
                log("the desktop prefers \(appearance == .dark ? "dark" : "light") now")
                redrawAll = true
            }
        }
        if let away = news.away, away != hostAway {
            hostAway = away
            log(away ? "the host is away; the last entries stay, marked as of their date" : "the host is back")
            redrawAll = true
        }
        guard let fresh = news.instances else { return }
        let old = Dictionary(instances.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let before = instances.map { "\($0.id) \($0.family.rawValue)" }
        instances = fresh
        if fresh.map({ "\($0.id) \($0.family.rawValue)" }) != before {
            arrangement = DesktopArrangement(fresh.map { ($0.id, $0.family) }, columns: options.columns)
            redrawAll = true
        } else {
            for instance in fresh where old[instance.id] != instance { dirty.insert(instance.id) }
        }
    }

    /// Widgets whose text changes as time passes (timers, relative dates) are drawn again at each
    /// whole second; nothing else wakes the client.
    private func nextTick() -> Double? {
        guard instances.contains(where: { $0.view.map(DateText.containsLive) ?? false }) else { return nil }
        let now = Date().timeIntervalSince1970
        return max(0.001, now.rounded(.down) + 1 - now)
    }

    private var lastTick = 0.0

    private func tickLiveWidgets() {
        let second = Date().timeIntervalSince1970.rounded(.down)
        guard second != lastTick else { return }
        lastTick = second
        for instance in instances where instance.view.map(DateText.containsLive) ?? false { dirty.insert(instance.id) }
    }

    // MARK: - Drawing

    private func draw() throws(DesktopError) {
        let width = Int(arrangement.width.rounded(.up))
        let height = Int(arrangement.height.rounded(.up))
        guard width > 0, height > 0 else {
            backend.hide()
            return
        }
        handleBackendEvents()
        guard let ready = backend.prepare(width: width, height: height) else {
            handleBackendEvents()
            return
        }
        handleBackendEvents()
        scale = ready.scale
        let pixelWidth = ready.width * scale
        let pixelHeight = ready.height * scale
        if (pixelWidth, pixelHeight) != canvasSize { redrawAll = true }
        var whole = redrawAll
        // Each widget with its index among those placed (the backend's tile).
        var chosen = arrangement.placed.enumerated().filter { redrawAll || dirty.contains($0.element.id) }
        redrawAll = false
        dirty.removeAll()
        guard !chosen.isEmpty else { return }
        if try backend.begin(width: pixelWidth, height: pixelHeight, scale: scale, everything: whole), !whole {
            // The backend has not what was shown (a new surface, size or scale): all of it is drawn.
            whole = true
            chosen = Array(arrangement.placed.enumerated())
        }
        canvasSize = (pixelWidth, pixelHeight)
        let now = Date()
        var damage: [PixelRect] = []
        for (index, placed) in chosen {
            let rect = pixelRect(placed)
            var image: RasterImage?
            if let instance = instances.first(where: { $0.id == placed.id }) {
                do {
                    image = try rasterizer.image(svg: drawing(of: instance, now: now), width: rect.width, height: rect.height)
                } catch {
                    log("\(instance.id): \(error)")
                }
            }
            try backend.show(image, at: rect, index: index)
            damage.append(rect)
        }
        let input = arrangement.placed.map { PixelRect(x: Int($0.x), y: Int($0.y), width: Int($0.width.rounded(.up)), height: Int($0.height.rounded(.up))) }
        try backend.end(count: arrangement.placed.count, input: input)
        if options.debug {
            // Only what changed goes to the compositor or the X server (a timer's second, a new entry).
            let sent = whole ? "all of \(pixelWidth) x \(pixelHeight)" : damage.map { "\($0.width) x \($0.height) at \($0.x), \($0.y)" }.joined(separator: "; ") + " of \(pixelWidth) x \(pixelHeight)"
            log("drew \(chosen.map(\.element.id).joined(separator: ", ")) at scale \(scale); sent \(sent)")
        }
    }

    private func pixelRect(_ placed: DesktopArrangement.Placed) -> PixelRect {
        PixelRect(
            x: Int((placed.x * Double(scale)).rounded()), y: Int((placed.y * Double(scale)).rounded()),
            width: Int((placed.width * Double(scale)).rounded()), height: Int((placed.height * Double(scale)).rounded()))
    }

    /// An instance's SVG: its entry, an empty widget before the first one (or its failure), and
    /// while the host is away a note of the date the entry is as of.
    private func drawing(of instance: ShownInstance, now: Date) -> String {
        let view: ViewNode
        if let shown = instance.view {
            view = shown
        } else {
            let words = instance.failure != nil ? "Unable to load" : ""
            view = ViewNode(
                "text", attributes: JSONObject([("text", .string(words))]),
                modifiers: [ViewModifierNode("font", .string("caption")), ViewModifierNode("foregroundStyle", .string("secondary"))])
        }
        let shownAt = max(now, Date(timeIntervalSince1970: instance.entryDate ?? 0))
        var svg = renderer.render(
            view, family: instance.family, now: shownAt, idPrefix: "d-", contentMarginsDisabled: instance.contentMarginsDisabled)
        if hostAway, let date = instance.entryDate, let end = svg.ranges(of: "</svg>").last {
            svg.insert(contentsOf: Self.asOfNote(date: date, family: instance.family, appearance: options.appearance), at: end.lowerBound)
        }
        return svg
    }

    /// "as of 10:42", at the bottom of the widget, on a pill that reads on any background.
    static func asOfNote(date: Double, family: WidgetFamily, appearance: Appearance) -> String {
        let clock = LocalTime()
        let shown = Date(timeIntervalSince1970: date)
        let text = "as of " + clock.text(shown, clock.isSameDay(shown, Date()) ? "%H:%M" : "%b %-d, %H:%M")
        let size = family.displaySize
        let width = Double(text.count) * 6.2 + 12
        let x = (size.width - width) / 2
        let y = size.height - 22
        let (fill, ink) = appearance == .dark ? ("#ffffff", "#000000") : ("#000000", "#ffffff")
        return "<g class=\"as-of\"><rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"16\" rx=\"8\" fill=\"\(fill)\" fill-opacity=\"0.6\"/>"
            + "<text x=\"\(size.width / 2)\" y=\"\(y + 12)\" text-anchor=\"middle\" font-size=\"11\" fill=\"\(ink)\">\(text)</text></g>\n"
    }

    // MARK: - Taps

    /// A tap at a point of the surface: on a link or an intent control of the widget there when one
    /// is under it, else on the widget itself (its widgetURL), sent to the host as the home screen
    /// sends one.
    private func tap(x: Double, y: Double) {
        guard let placed = arrangement.widget(at: x, y), let instance = instances.first(where: { $0.id == placed.id }), let view = instance.view else {
            return
        }
        let (localX, localY) = (x - placed.x, y - placed.y)
        let areas = renderer.tapAreas(
            view, family: instance.family, now: max(Date(), Date(timeIntervalSince1970: instance.entryDate ?? 0)),
            contentMarginsDisabled: instance.contentMarginsDisabled)
        let hit = areas.last { localX >= $0.rect.x && localX < $0.rect.x + $0.rect.width && localY >= $0.rect.y && localY < $0.rect.y + $0.rect.height }
        let target: ControlRequest.TapTarget =
            switch hit?.target {
            case .link(let number): .link(number)
            case .control(let number): .control(number)
            case nil: .widget
            }
        let path = options.socketPath
        let log = self.log
        let sent = taps.async {
            do throws(ControlError) {
                _ = try ControlClient(path: path).send(.tap(instance: instance.id, target: target))
            } catch {
                log("tap on \(instance.id): \(error)")
            }
        }
        if !sent { log("tap on \(instance.id): not sent (no thread could be started to send it)") }
    }

    /// A right click on a widget opens the home screen's page with its Edit Widget open (where
    /// widgets are also added, removed and reordered).
    private func openHome(editing id: String?) {
        let path = options.socketPath
        let (log, open) = (self.log, options.open)
        let edit = id.map { "&edit=" + $0.percentEncoded } ?? ""
        let sent = taps.async {
            do throws(ControlError) {
                guard case .home(let url) = try ControlClient(path: path).send(.home) else { return }
                open(url + edit)
            } catch {
                log("cannot open the home screen: \(error)")
            }
        }
        if !sent { log("cannot open the home screen: no thread could be started to ask the host") }
    }
}
