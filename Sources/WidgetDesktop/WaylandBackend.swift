/// The widgets on a Wayland desktop: one zwlr_layer_shell_v1 surface on the bottom layer (no
/// exclusive zone, no keyboard, input only where widgets are) on the output named or the
/// compositor's choice, at that output's scale; made again when the compositor closes it (its output
/// gone) once an output comes or changes.
final class WaylandBackend: DesktopBackend {
    private let display: WaylandDisplay
    private let outputName: String?
    private let anchor: DesktopAnchor
    private let margins: DesktopMargins

    private var outputs: [UInt32: WaylandOutput] = [:]
    private var surface: OpaquePointer?
    private var configured = false
    /// The output the surface is on, for its scale.
    private var surfaceOutput: UInt32 = 0
    private var scale = 1
    /// The size asked of the compositor, in points, and the size it configured (0: as asked).
    private var surfaceSize = (width: 0, height: 0)
    private var configuredSize = (width: 0, height: 0)
    /// The surface was closed (its output went away): none is made until an output comes or changes.
    private var awaitingOutput = false
    private var events: [DesktopEvent] = []

    /// Connects; the error names what is missing (the library and its Debian package, the layer
    /// shell). An output named that is not there yet is waited for, and said so.
    init(waylandDisplay: String?, output: String?, anchor: DesktopAnchor, margins: DesktopMargins) throws(DesktopError) {
        display = try WaylandDisplay(name: waylandDisplay)
        outputName = output
        self.anchor = anchor
        self.margins = margins
        for event in display.takeEvents() { handle(event) }
        if let name = output, !outputs.values.contains(where: { $0.name == name }) {
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

    private func handle(_ event: WaylandDisplay.Event) {
        switch event {
        case .output(let output, let removed):
            if removed {
                outputs[output.id] = nil
                note("output \(output.name) went away")
                return
            }
            if outputs[output.id] == nil { note("output \(output.name) is there, at scale \(output.scale)") }
            awaitingOutput = false
            let before = outputs[output.id]
            outputs[output.id] = output
            if output.id == surfaceOutput, before?.scale != output.scale {
                scale = max(1, output.scale)
                events.append(.redrawAll)
            }
        case .configure(let configuredSurface, let width, let height):
            guard configuredSurface == surface else { return }
            // Each configure is acknowledged by the next drawing: drawn whole, in the size given
            // (0: the size asked).
            configuredSize = (width, height)
            configured = true
            events.append(.redrawAll)
        case .closed(let closedSurface):
            guard closedSurface == surface else { return }
            display.destroy(closedSurface)
            surface = nil
            configured = false
            // Made again once an output comes or changes: at once, a compositor with no output
            // would close it again as fast as it is made.
            awaitingOutput = true
            note("the surface's output went away; the widgets are shown again when an output is there", debug: false)
        case .entered(let enteredSurface, let output):
            guard enteredSurface == surface, output != 0 else { return }
            surfaceOutput = output
            let newScale = max(1, outputs[output]?.scale ?? 1)
            if newScale != scale {
                scale = newScale
                events.append(.redrawAll)
            }
        case .pointer(let present):
            note(present ? "a pointer is there" : "the pointer went away")
        case .button(let tappedSurface, let x, let y, let button, let pressed):
            guard tappedSurface == surface, !pressed else { return }
            note("click at \(x), \(y) (button \(button))")
            // evdev's BTN_LEFT and BTN_RIGHT.
            if button == 0x110 || button == 0x111 { events.append(.click(x: x, y: y, primary: button == 0x110)) }
        }
    }

    /// The output the surface goes on: the one named, when it is there; 0 (the compositor's choice)
    /// when none is named; nil when the one named is not there now.
    private var chosenOutput: UInt32? {
        guard let name = outputName else { return 0 }
        return outputs.values.first { $0.name == name }?.id
    }

    func prepare(width: Int, height: Int) -> (scale: Int, width: Int, height: Int)? {
        guard let surface else {
            guard !awaitingOutput, !outputs.isEmpty, let output = chosenOutput else { return nil }
            if let made = display.layerSurface(output: output, anchor: anchor, margins: margins, width: width, height: height) {
                note("a surface of \(width) x \(height) points on \(output == 0 ? "the compositor's choice of output" : outputs[output]?.name ?? "?")")
                self.surface = made
                configured = false
                surfaceSize = (width, height)
                configuredSize = (0, 0)
                surfaceOutput = output
                if output != 0 { scale = max(1, outputs[output]?.scale ?? 1) }
            } else {
                note("the compositor could not make a layer surface", debug: false)
            }
            return nil
        }
        if (width, height) != surfaceSize {
            // Another size is asked for, and drawn once the compositor has configured it.
            display.resize(surface, width: width, height: height, margins: margins)
            surfaceSize = (width, height)
            configured = false
            return nil
        }
        guard configured else { return nil }
        // A compositor may configure it smaller than asked: what does not fit is cut.
        let shownWidth = configuredSize.width > 0 ? min(configuredSize.width, width) : width
        let shownHeight = configuredSize.height > 0 ? min(configuredSize.height, height) : height
        return (scale, shownWidth, shownHeight)
    }

    func present(pixels: [UInt8], width: Int, height: Int, scale: Int, damage: [PixelRect], input: [PixelRect]) throws(DesktopError) {
        guard let surface else { return }
        try display.present(surface, pixels: pixels, width: width, height: height, scale: scale, damage: damage, input: input)
    }

    func hide() {
        guard let surface else { return }
        display.destroy(surface)
        self.surface = nil
        configured = false
        surfaceSize = (0, 0)
    }
}
