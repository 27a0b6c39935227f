import CWayland
import WidgetRendering

/// The widgets on a Wayland desktop: a zwlr_layer_shell_v1 surface on the bottom layer (no
/// exclusive zone, no keyboard, input only where widgets are) on the output named, on every output
/// (`all`), or on the compositor's choice, at the output's scale (the largest of them, for every
/// output); a surface the compositor closes (its output gone) is made again once an output comes or
/// changes. Each widget is a subsurface of its own (a tile), whose buffer the compositor alone
/// keeps: a timer's second sends that widget's pixels, and the client keeps none.
final class WaylandBackend: DesktopBackend {
    private let display: WaylandDisplay
    private let outputName: String?
    private let anchor: DesktopAnchor
    private let margins: DesktopMargins

    /// One surface: on an output (0: the compositor's choice), the size asked of the compositor in
    /// points and the size it configured (0: as asked), and the output it is shown on.
    private struct Placement {
        var surface: OpaquePointer
        var output: UInt32
        var configured = false
        var asked: (width: Int, height: Int)
        var given = (width: 0, height: 0)
        var shownOn: UInt32 = 0
        /// Every widget has been shown on it at the scale drawn at.
        var complete = false
    }

    private var outputs: [UInt32: WaylandOutput] = [:]
    private var placements: [Placement] = []
    /// Outputs (0: the compositor's choice) whose surface the compositor closed: none is made there
    /// until an output comes or changes, or a compositor with no output would close it as fast as it
    /// is made.
    private var closedOn: Set<UInt32> = []
    private var scale = 1
    private var events: [DesktopEvent] = []
    /// The scale the widgets were last drawn at, and the size in pixels the compositor gave.
    private var drawnScale = 0
    private var shownSize = (width: 0, height: 0)
    /// Said that widgets past the most a surface shows are left out.
    private var saidTooMany = false

    /// Connects; the error names what is missing (the library and its Debian package, the layer
    /// shell). An output named that is not there yet is waited for, and said so.
    init(waylandDisplay: String?, output: String?, anchor: DesktopAnchor, margins: DesktopMargins) throws(DesktopError) {
        display = try WaylandDisplay(name: waylandDisplay)
        outputName = output
        self.anchor = anchor
        self.margins = margins
        for event in display.takeEvents() { handle(event) }
        if let name = output, name != "all", !outputs.values.contains(where: { $0.name == name }) {
            // Shown when it comes (a monitor plugged in later, a session still setting up).
            let names = outputs.values.map(\.name).filter { !$0.isEmpty }.sorted()
            events.append(
                .note(
                    "no output is named \"\(name)\" now (outputs: \(names.isEmpty ? "none" : names.joined(separator: ", "))); the widgets are shown when it comes",
                    debug: false))
        }
    }

    func dispatch(wake: Int32, timeout: Double?) throws(DesktopError) -> Bool {
        let woken = try display.dispatch(wake: wake, timeout: timeout)
        for event in display.takeEvents() { handle(event) }
        return woken
    }

    func takeEvents() -> [DesktopEvent] {
        defer { events.removeAll() }
        return events
    }

    private func note(_ text: String, debug: Bool = true) { events.append(.note(text, debug: debug)) }

    private func placement(of surface: OpaquePointer) -> Int? { placements.firstIndex { $0.surface == surface } }

    private func handle(_ event: WaylandDisplay.Event) {
        switch event {
        case .output(let output, let removed):
            if removed {
                outputs[output.id] = nil
                note("output \(output.name) went away")
                // Its surface (all outputs) goes with it; the compositor closes it too.
                for index in placements.indices.reversed() where placements[index].output == output.id {
                    display.destroy(placements[index].surface)
                    placements.remove(at: index)
                }
                updateScale()
                return
            }
            if outputs[output.id] == nil { note("output \(output.name) is there, at scale \(output.scale)") }
            closedOn.remove(output.id)
            closedOn.remove(0)
            outputs[output.id] = output
            updateScale()
        case .configure(let surface, let width, let height):
            guard let index = placement(of: surface) else { return }
            // Each configure is acknowledged by the next drawing: drawn whole, in the size given
            // (0: the size asked).
            placements[index].given = (width, height)
            placements[index].configured = true
            events.append(.redrawAll)
        case .closed(let surface):
            guard let index = placement(of: surface) else { return }
            closedOn.insert(placements[index].output)
            display.destroy(surface)
            placements.remove(at: index)
            updateScale()
            note("the surface's output went away; the widgets are shown again when an output is there", debug: false)
        case .entered(let surface, let output):
            guard let index = placement(of: surface), output != 0 else { return }
            placements[index].shownOn = output
            updateScale()
        case .pointer(let present):
            note(present ? "a pointer is there" : "the pointer went away")
        case .button(let surface, let x, let y, let button, let pressed):
            guard placement(of: surface) != nil, !pressed else { return }
            note("click at \(x), \(y) (button \(button))")
            // evdev's BTN_LEFT and BTN_RIGHT.
            if button == 0x110 || button == 0x111 { events.append(.click(x: x, y: y, primary: button == 0x110)) }
        }
    }

    /// The largest scale of the outputs the surfaces are on: drawn at it everywhere (sharp on the
    /// densest, scaled down by the compositor on the others).
    private func updateScale() {
        let shown = placements.map { $0.output != 0 ? $0.output : $0.shownOn }.compactMap { outputs[$0]?.scale }
        // No output known yet (a surface just made on the compositor's choice): as before, until it
        // says where it is.
        guard let largest = shown.max() else { return }
        let newScale = max(1, largest)
        if newScale != scale {
            scale = newScale
            events.append(.redrawAll)
        }
    }

    /// The outputs a surface goes on: the one named, when it is there; each of them (`all`); 0 (the
    /// compositor's choice) when none is named.
    private var wantedOutputs: [UInt32] {
        switch outputName {
        case nil: [0]
        case "all": outputs.keys.sorted()
        case let name?: outputs.values.filter { $0.name == name }.map(\.id)
        }
    }

    func prepare(width: Int, height: Int) -> (scale: Int, width: Int, height: Int)? {
        let wanted = outputs.isEmpty ? [] : wantedOutputs.filter { !closedOn.contains($0) }
        // Surfaces on outputs no longer wanted go; those missing are made.
        for index in placements.indices.reversed() where !wanted.contains(placements[index].output) {
            display.destroy(placements[index].surface)
            placements.remove(at: index)
            updateScale()
        }
        for output in wanted where !placements.contains(where: { $0.output == output }) {
            guard let made = display.layerSurface(output: output, anchor: anchor, margins: margins, width: width, height: height) else {
                note("the compositor could not make a layer surface", debug: false)
                continue
            }
            note("a surface of \(width) x \(height) points on \(output == 0 ? "the compositor's choice of output" : outputs[output]?.name ?? "?")")
            placements.append(Placement(surface: made, output: output, asked: (width, height)))
            updateScale()
        }
        for index in placements.indices where placements[index].asked != (width, height) {
            // Another size is asked for, and drawn once the compositor has configured it.
            display.resize(placements[index].surface, width: width, height: height, margins: margins)
            placements[index].asked = (width, height)
            placements[index].configured = false
        }
        guard !placements.isEmpty, placements.allSatisfy(\.configured) else { return nil }
        // A compositor may configure one smaller than asked: what does not fit is cut.
        let shownWidth = placements.map { $0.given.width > 0 ? min($0.given.width, width) : width }.min() ?? width
        let shownHeight = placements.map { $0.given.height > 0 ? min($0.given.height, height) : height }.min() ?? height
        return (scale, shownWidth, shownHeight)
    }

    func begin(width: Int, height: Int, scale: Int, everything: Bool) throws(DesktopError) -> Bool {
        shownSize = (width, height)
        if scale != drawnScale {
            drawnScale = scale
            for index in placements.indices { placements[index].complete = false }
        }
        return placements.contains { $0.configured && !$0.complete }
    }

    func show(_ image: RasterImage?, at rect: PixelRect, index: Int) throws(DesktopError) {
        guard index < Int(WD_MAX_TILES) else {
            if !saidTooMany { note("at most \(WD_MAX_TILES) widgets are shown on a Wayland surface; those after them are not", debug: false) }
            saidTooMany = true
            return
        }
        // Cut to the size the compositor gave, as a buffer would be (subsurfaces are not cut by
        // their parent), in whole points; nothing of it there: a transparent point.
        let scale = drawnScale
        let visible = (width: min(rect.width, shownSize.width - rect.x) / scale * scale, height: min(rect.height, shownSize.height - rect.y) / scale * scale)
        let inside = visible.width > 0 && visible.height > 0
        for placement in placements where placement.configured {
            try display.tile(
                placement.surface, index: index, x: inside ? rect.x / scale : 0, y: inside ? rect.y / scale : 0, image: inside ? image : nil,
                width: inside ? visible.width : scale, height: inside ? visible.height : scale, scale: scale)
        }
    }

    func end(count: Int, input: [PixelRect]) throws(DesktopError) {
        // Each widget's surface takes input where it is; the layer surface itself takes none.
        for index in placements.indices where placements[index].configured {
            try display.commit(placements[index].surface, tiles: count)
            placements[index].complete = true
        }
    }

    func hide() {
        for placement in placements { display.destroy(placement.surface) }
        placements.removeAll()
    }
}
