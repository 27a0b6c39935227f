import CX11
import FoundationEssentials
import WidgetRendering
import WidgetSupport

/// The widgets on an X11 desktop: one window of type _NET_WM_WINDOW_TYPE_DESKTOP, below the others,
/// sticky, undecorated, in no task bar (as conky's desktop windows are), shaped to where the widgets
/// draw and taking input only there; placed on the screen by the anchor and margins, and again when
/// the screen's size changes. Drawn at the scale the desktop asks of X11 programs (`X11Scale`), and
/// again when it changes.
final class X11Backend: DesktopBackend {
    private let display: OpaquePointer
    private let anchor: DesktopAnchor
    private let margins: DesktopMargins
    private let inbox = CallbackInbox<Heard>()
    /// Where the window is now, in pixels of the screen.
    private var placed = (x: 0, y: 0, width: 0, height: 0)
    /// Shaped to nothing, there being no widget to show.
    private var hidden = false
    /// Pixels a point, and what set it.
    private var scale: X11Scale
    /// The scale of what the window shows now: a click is in its pixels, even when a new scale has
    /// been read and not yet drawn at.
    private var shownScale = 1
    /// The monitor asked for (`--output`): nil for the primary one.
    private let output: String?
    /// The part of the screen the widgets are placed in (a monitor's, or the whole screen's), read
    /// again when the screen or its monitors change; nil until then.
    private var area: (x: Int, y: Int, width: Int, height: Int)?
    /// The screen's size as last said.
    private var screenSize = (width: Int32(0), height: Int32(0))
    /// What the window shows (sent again when the X server exposes the window, a part sent when a
    /// widget changes, the window's shape cut from it), and its size in pixels; what a drawing
    /// changed of it (`begin` to `end`), or that it is all sent; the scale it is drawn at.
    private var pixels = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var pixelsSize = (width: 0, height: 0)
    private var damage: [PixelRect] = []
    private var sendsAll = false
    private var drawingScale = 1
    /// Where the window shown takes input (points), to send it again on exposure.
    private var shownInput: [PixelRect] = []

    /// What the X server's events tell: the client's events, or that the screen's resources changed.
    private enum Heard {
        case event(DesktopEvent)
        case resources
        case screen
        case expose
    }

    init(display name: String?, output: String?, anchor: DesktopAnchor, margins: DesktopMargins) throws(DesktopError) {
        self.anchor = anchor
        self.margins = margins
        self.output = output
        typealias Inbox = CallbackInbox<Heard>
        var callbacks = wx_callbacks()
        callbacks.context = inbox.context
        callbacks.button = { context, x, y, button, pressed in
            // X's buttons 1 and 3: primary and secondary.
            guard pressed == 0, button == 1 || button == 3 else { return }
            Inbox.post(context, .event(.click(x: x, y: y, primary: button == 1)))
        }
        callbacks.expose = { context in Inbox.post(context, .expose) }
        callbacks.error = { context, code in Inbox.post(context, .event(.note("the X server refused a request (error \(code))", debug: true))) }
        callbacks.screen = { context, _, _ in Inbox.post(context, .screen) }
        callbacks.resources = { context in Inbox.post(context, .resources) }
        var error = [CChar](repeating: 0, count: 512)
        let connected = name.map { given in given.withCString { wx_connect($0, &callbacks, &error, error.count) } } ?? wx_connect(nil, &callbacks, &error, error.count)
        guard let connected else {
            inbox.close()
            throw DesktopError(decodedCString(error))
        }
        display = connected
        scale = X11Scale(dpi: wx_resource_dpi(connected))
        inbox.append(.event(.note("drawn at scale \(scale.factor) (\(scale.reason))", debug: true)))
    }

    deinit {
        wx_disconnect(display)
        inbox.close()
        pixels.deallocate()
    }

    func dispatch(wake: Int32, timeout: Double?) throws(DesktopError) -> Bool {
        var error = [CChar](repeating: 0, count: 512)
        let milliseconds = timeout.map { Int32(max(0, min($0 * 1000, 3_600_000)).rounded(.up)) } ?? -1
        let result = wx_dispatch(display, wake, milliseconds, &error, error.count)
        if result < 0 { throw DesktopError(decodedCString(error)) }
        return result == 1
    }

    func takeEvents() -> [DesktopEvent] {
        let heard = inbox.take()
        // An exposure comes as a rectangle at a time (dragging a window over the widgets, many):
        // answered once.
        var exposed = false
        var events = heard.flatMap { heard -> [DesktopEvent] in
            switch heard {
            case .event(.click(let x, let y, let primary)):
                // In the window's pixels: in points at the scale the window shows.
                return [.click(x: x / Double(shownScale), y: y / Double(shownScale), primary: primary)]
            case .event(let event):
                return [event]
            case .expose:
                exposed = true
                return []
            case .screen:
                // Placed again on the monitor as it is now, and drawn there. The size is asked now:
                // one change may come as two events (the root's and RandR's), said once.
                area = nil
                var size = (width: Int32(0), height: Int32(0))
                wx_screen_size(display, &size.width, &size.height)
                guard size != screenSize else { return [.redrawAll] }
                screenSize = size
                return [.note("the screen is \(size.width) x \(size.height) now", debug: true), .redrawAll]
            case .resources:
                // Xft.dpi may have changed (a desktop's scale set anew): drawn again at the new scale.
                guard !scale.isGiven else { return [] }
                let now = X11Scale(dpi: wx_resource_dpi(display))
                guard now.factor != scale.factor else { return [] }
                scale = now
                return [.note("drawn at scale \(now.factor) now (\(now.reason))", debug: true), .redrawAll]
            }
        }
        // Sent again from the pixels kept; drawn again only when there are none yet.
        if exposed, pixelsSize.width == 0 || hidden || (try? send(damage: [], input: shownInput, scale: shownScale)) == nil { events.append(.redrawAll) }
        return events
    }

    func prepare(width points: Int, height heightInPoints: Int) -> (scale: Int, width: Int, height: Int)? {
        let factor = scale.factor
        let (width, height) = (points * factor, heightInPoints * factor)
        let margins = (top: self.margins.top * factor, right: self.margins.right * factor, bottom: self.margins.bottom * factor, left: self.margins.left * factor)
        let area = self.area ?? chooseArea()
        self.area = area
        let bits = anchor.bits
        let x =
            area.x + (bits & 4 != 0 ? margins.left : bits & 8 != 0 ? area.width - margins.right - width : (area.width - width) / 2)
        let y =
            area.y + (bits & 1 != 0 ? margins.top : bits & 2 != 0 ? area.height - margins.bottom - height : (area.height - height) / 2)
        if (x, y, width, height) != placed {
            var error = [CChar](repeating: 0, count: 512)
            guard wx_place(display, Int32(x), Int32(y), Int32(width), Int32(height), &error, error.count) == 0 else {
                inbox.append(.event(.note(decodedCString(error), debug: false)))
                return nil
            }
            let first = placed.width == 0
            placed = (x, y, width, height)
            inbox.append(.event(.note("a window of \(width) x \(height) at \(x), \(y) of the screen", debug: true)))
            // A window just made is drawn as any new canvas is; one moved or resized, again now.
            if !first { inbox.append(.event(.redrawAll)) }
        }
        return (factor, points, heightInPoints)
    }

    /// The monitor named by `--output`, else the primary one, else the first (RandR's monitors);
    /// the whole screen where there are none to ask for.
    private func chooseArea() -> (x: Int, y: Int, width: Int, height: Int) {
        var screen = (width: Int32(0), height: Int32(0))
        wx_screen_size(display, &screen.width, &screen.height)
        let whole = (x: 0, y: 0, width: Int(screen.width), height: Int(screen.height))
        var found = [wx_monitor](repeating: wx_monitor(), count: 16)
        let count = Int(wx_monitors(display, &found, Int32(found.count)))
        guard count > 0 else {
            let why = count == 0 ? "RandR names no monitor" : "no RandR 1.5, or no libxcb-randr0"
            inbox.append(.event(.note("no monitors to choose from (\(why)): the whole screen", debug: output == nil)))
            return whole
        }
        let monitors = found.prefix(count).map { monitor in
            (name: withUnsafeBytes(of: monitor.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
             area: (x: Int(monitor.x), y: Int(monitor.y), width: Int(monitor.width), height: Int(monitor.height)), primary: monitor.primary != 0)
        }
        var chosen = monitors.first(where: \.primary) ?? monitors[0]
        if let output {
            if let named = monitors.first(where: { $0.name == output }) {
                chosen = named
            } else {
                inbox.append(
                    .event(.note("no monitor is named \(output) on this X server (it has \(monitors.map(\.name).joined(separator: ", "))): on \(chosen.name)", debug: false)))
            }
        }
        inbox.append(.event(.note("on the monitor \(chosen.name), \(chosen.area.width) x \(chosen.area.height) at \(chosen.area.x), \(chosen.area.y)", debug: true)))
        return chosen.area
    }

    func begin(width: Int, height: Int, scale: Int, everything: Bool) throws(DesktopError) -> Bool {
        // The X server is sent what changed from this copy, and all of it again when it exposes the window.
        var fresh = false
        if (width, height) != pixelsSize {
            pixels.deallocate()
            pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: width * height * 4, alignment: 16)
            pixelsSize = (width, height)
            fresh = true
        }
        sendsAll = fresh || everything
        // Drawn whole: nothing of a widget moved or removed is left where it was.
        if sendsAll { pixels.initializeMemory(as: UInt8.self, repeating: 0) }
        damage = []
        drawingScale = scale
        return fresh
    }

    func show(_ image: RasterImage?, at rect: PixelRect, index: Int) throws(DesktopError) {
        let (width, height) = pixelsSize
        let stride = width * 4
        let (left, right) = (max(0, rect.x), min(width, rect.x + rect.width))
        guard left < right, let target = pixels.baseAddress else { return }
        for row in max(0, rect.y)..<min(height, rect.y + rect.height) {
            let line = target + row * stride
            (line + left * 4).initializeMemory(as: UInt8.self, repeating: 0, count: (right - left) * 4)
            guard let image, image.isWhole, row - rect.y < image.height else { continue }
            image.pixels.withUnsafeBytes { source in
                let columns = min(image.width - (left - rect.x), right - left)
                if columns > 0 {
                    (line + left * 4).copyMemory(from: source.baseAddress! + (row - rect.y) * image.stride + (left - rect.x) * 4, byteCount: columns * 4)
                }
            }
        }
        damage.append(rect)
    }

    func end(count: Int, input: [PixelRect]) throws(DesktopError) {
        try send(damage: sendsAll ? [] : damage, input: input, scale: drawingScale)
        shownScale = drawingScale
        shownInput = input
        hidden = false
    }

    /// The kept pixels sent to the X server: the rectangles of `damage` (empty: all), the window
    /// shaped to them, input taken in `input` (points at `scale`).
    private func send(damage: [PixelRect], input: [PixelRect], scale: Int) throws(DesktopError) {
        var error = [CChar](repeating: 0, count: 512)
        let inputValues = input.flatMap { [$0.x, $0.y, $0.width, $0.height].map { Int32($0 * scale) } }
        let damageValues = damage.flatMap { [$0.x, $0.y, $0.width, $0.height].map { Int32($0) } }
        let (width, height) = pixelsSize
        let result = inputValues.withUnsafeBufferPointer { input in
            damageValues.withUnsafeBufferPointer { damage in
                wx_present(
                    display, pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), Int32(width * 4), damage.baseAddress,
                    Int32(damageValues.count / 4), input.baseAddress, Int32(inputValues.count / 4), &error, error.count)
            }
        }
        if result < 0 { throw DesktopError(decodedCString(error)) }
    }

    func hide() {
        // Shaped to nothing: the window stays, showing and taking nothing (once).
        guard placed.width > 0, !hidden else { return }
        wx_hide(display)
        hidden = true
    }
}

/// The scale of a desktop's X11 programs: `GDK_SCALE` (a whole number, GTK's setting, as GNOME and
/// Xfce set it), else the screen's `Xft.dpi` resource over 96, to the nearest whole number (a
/// settings daemon sets it with the desktop's scale; 144 dpi draws at 2 and is as sharp as a 2×
/// Wayland output), else 1. At most 4.
struct X11Scale {
    let factor: Int
    let reason: String
    /// Set by GDK_SCALE, which the screen's resources do not change.
    let isGiven: Bool

    /// The process's GDK_SCALE, read once.
    static let gdkScale = ProcessInfo.processInfo.environment["GDK_SCALE"]

    init(dpi: Double, gdkScale: String? = X11Scale.gdkScale) {
        isGiven = gdkScale.flatMap { Int($0) }.map { $0 >= 1 } ?? false
        if isGiven, let text = gdkScale, let given = Int(text) {
            (factor, reason) = (min(given, 4), "GDK_SCALE=\(text)")
        } else if dpi > 0 {
            (factor, reason) = (min(max(Int((dpi / 96).rounded()), 1), 4), "Xft.dpi \(dpi == dpi.rounded() ? String(Int(dpi)) : String(dpi))")
        } else {
            (factor, reason) = (1, "no Xft.dpi or GDK_SCALE")
        }
    }
}

/// For tests of the X11 desktop window: the screen's pixels, as the X server has them.
public final class X11Screen: @unchecked Sendable {
    private let display: OpaquePointer

    public init(display name: String) throws(DesktopError) {
        var callbacks = wx_callbacks()
        var error = [CChar](repeating: 0, count: 512)
        guard let connected = name.withCString({ wx_connect($0, &callbacks, &error, error.count) }) else {
            throw DesktopError(decodedCString(error))
        }
        display = connected
    }

    deinit { wx_disconnect(display) }

    /// Replaces the screen's resources (`Xft.dpi:\t192\n`), as `xrdb -load` does.
    public func setResources(_ text: String) throws(DesktopError) {
        guard wx_set_resources(display, text) == 0 else { throw DesktopError("the X server refused the resources") }
    }

    /// Sets a monitor of the screen, as `xrandr --setmonitor` does.
    public func setMonitor(_ name: String, x: Int, y: Int, width: Int, height: Int, primary: Bool) throws(DesktopError) {
        guard wx_set_monitor(display, name, Int32(x), Int32(y), Int32(width), Int32(height), primary ? 1 : 0) == 0 else {
            throw DesktopError("the X server refused the monitor \(name)")
        }
    }

    /// Removes a monitor, as `xrandr --delmonitor` does.
    public func deleteMonitor(_ name: String) throws(DesktopError) {
        guard wx_delete_monitor(display, name) == 0 else { throw DesktopError("the X server refused to remove the monitor \(name)") }
    }

    /// A rectangle of the screen: 4 bytes a pixel, as `RasterImage` has them, opaque.
    public func capture(x: Int, y: Int, width: Int, height: Int) -> [UInt8]? {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let result = pixels.withUnsafeMutableBufferPointer { wx_capture(display, Int32(x), Int32(y), Int32(width), Int32(height), $0.baseAddress) }
        guard result == 0 else { return nil }
        // A screen is opaque: its alpha byte, which a 24-bit screen leaves undefined, is set.
        for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = 255 }
        return pixels
    }
}
