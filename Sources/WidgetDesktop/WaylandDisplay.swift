import CWayland
import FoundationEssentials
import WidgetRendering
import WidgetSupport

/// A connection to a Wayland compositor with the layer shell (see wayland_desktop.h): outputs,
/// layer surfaces, buffers, pointer buttons. Used from one thread, the one that calls `dispatch`;
/// what the compositor says comes back through `events`, from inside `dispatch`.
final class WaylandDisplay {
    /// What the compositor said.
    enum Event {
        case output(WaylandOutput, removed: Bool)
        case configure(OpaquePointer, width: Int, height: Int)
        case closed(OpaquePointer)
        case entered(OpaquePointer, output: UInt32)
        case button(OpaquePointer, x: Double, y: Double, button: UInt32, pressed: Bool)
        case pointer(present: Bool)
    }

    private let display: OpaquePointer
    /// Filled by the callbacks, emptied by `takeEvents`.
    private let inbox = CallbackInbox<Event>()

    /// Connects (`name` as WAYLAND_DISPLAY gives it, nil for the environment's); the error says what
    /// is missing (the library and its Debian package, or the layer shell).
    init(name: String? = nil) throws(DesktopError) {
        typealias Inbox = CallbackInbox<Event>
        var callbacks = wd_callbacks()
        callbacks.context = inbox.context
        callbacks.output = { context, id, name, scale, width, height, removed in
            let output = WaylandOutput(id: id, name: name.map { String(cString: $0) } ?? "", scale: Int(scale), width: Int(width), height: Int(height))
            Inbox.post(context, .output(output, removed: removed != 0))
        }
        callbacks.configure = { context, surface, width, height in
            Inbox.post(context, .configure(surface!, width: Int(width), height: Int(height)))
        }
        callbacks.closed = { context, surface in Inbox.post(context, .closed(surface!)) }
        callbacks.entered = { context, surface, output in Inbox.post(context, .entered(surface!, output: output)) }
        callbacks.button = { context, surface, x, y, button, pressed in
            Inbox.post(context, .button(surface!, x: x, y: y, button: button, pressed: pressed != 0))
        }
        callbacks.pointer = { context, present in Inbox.post(context, .pointer(present: present != 0)) }
        var error = [CChar](repeating: 0, count: 512)
        let connected = name.map { given in given.withCString { wd_connect($0, &callbacks, &error, error.count) } } ?? wd_connect(nil, &callbacks, &error, error.count)
        guard let connected else {
            inbox.close()
            throw DesktopError(decodedCString(error))
        }
        display = connected
    }

    deinit {
        wd_disconnect(display)
        inbox.close()
    }

    /// The events that came while connecting (the outputs), then those of each `dispatch`.
    func takeEvents() -> [Event] { inbox.take() }

    /// Waits at most `timeout` seconds (nil: as long as it takes) for the compositor or `wake` and
    /// handles what came. True when `wake` is readable.
    func dispatch(wake: Int32, timeout: Double?) throws(DesktopError) -> Bool {
        var error = [CChar](repeating: 0, count: 512)
        let milliseconds = timeout.map { Int32(max(0, min($0 * 1000, 3_600_000)).rounded(.up)) } ?? -1
        let result = wd_dispatch(display, wake, milliseconds, &error, error.count)
        if result < 0 { throw DesktopError(decodedCString(error)) }
        return result == 1
    }

    func roundtrip() throws(DesktopError) {
        if wd_roundtrip(display) < 0 { throw DesktopError("the connection to the Wayland compositor was lost") }
    }

    /// A layer surface of `size` points on the bottom layer (see `wd_layer_surface`).
    func layerSurface(output: UInt32, anchor: DesktopAnchor, margins: DesktopMargins, width: Int, height: Int) -> OpaquePointer? {
        let values = margins.values
        return values.withUnsafeBufferPointer { margins in
            wd_layer_surface(display, output, UInt32(WD_LAYER_BOTTOM), anchor.bits, margins.baseAddress, UInt32(width), UInt32(height), "widgets")
        }
    }

    func resize(_ surface: OpaquePointer, width: Int, height: Int, margins: DesktopMargins) {
        margins.values.withUnsafeBufferPointer { wd_surface_resize(surface, UInt32(width), UInt32(height), $0.baseAddress) }
    }

    func destroy(_ surface: OpaquePointer) { wd_surface_destroy(surface) }

    /// Shows a widget's pixels as the surface's `index`th tile at (x, y) points (see `wd_tile`):
    /// the top left `width` × `height` of `image`; nil: transparent.
    func tile(_ surface: OpaquePointer, index: Int, x: Int, y: Int, image: RasterImage?, width: Int, height: Int, scale: Int) throws(DesktopError) {
        var error = [CChar](repeating: 0, count: 512)
        let result: Int32
        if let image, image.isWhole, width <= image.width, height <= image.height {
            result = image.pixels.withUnsafeBufferPointer {
                wd_tile(surface, Int32(index), Int32(x), Int32(y), $0.baseAddress, Int32(width), Int32(height), Int32(image.stride), Int32(scale), &error, error.count)
            }
        } else {
            result = wd_tile(surface, Int32(index), Int32(x), Int32(y), nil, Int32(width), Int32(height), 0, Int32(scale), &error, error.count)
        }
        if result < 0 { throw DesktopError(decodedCString(error)) }
    }

    /// Commits the surface with `count` tiles (see `wd_surface_commit`).
    func commit(_ surface: OpaquePointer, tiles count: Int) throws(DesktopError) {
        var error = [CChar](repeating: 0, count: 512)
        if wd_surface_commit(surface, Int32(count), &error, error.count) < 0 { throw DesktopError(decodedCString(error)) }
    }

    /// For tests: a virtual pointer moved to a point of the output layout, its left button pressed
    /// and released (false when the compositor has no virtual pointers).
    func virtualMove(x: Int, y: Int, extentWidth: Int, extentHeight: Int) -> Bool {
        wd_virtual_move(display, UInt32(x), UInt32(y), UInt32(extentWidth), UInt32(extentHeight)) == 0
    }

    func virtualButton(secondary: Bool, pressed: Bool) -> Bool { wd_virtual_button(display, secondary ? 1 : 0, pressed ? 1 : 0) == 0 }
}

/// An output as the compositor describes it.
struct WaylandOutput: Equatable {
    var id: UInt32
    var name: String
    var scale: Int
    var width: Int
    var height: Int
}

/// A rectangle of whole pixels (or points, for input regions).
struct PixelRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

/// Why the desktop surface cannot be shown.
public struct DesktopError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
