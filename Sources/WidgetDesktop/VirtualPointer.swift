/// For tests of the desktop surface: a pointer of the compositor's own (zwlr_virtual_pointer_v1, which
/// sway and other wlroots compositors offer), moved and clicked as a person's mouse would be, so that
/// a tap reaches `widgets desktop` through the compositor.
public final class VirtualPointer {
    private let display: WaylandDisplay

    public init(waylandDisplay: String? = nil) throws(DesktopError) {
        display = try WaylandDisplay(name: waylandDisplay)
    }

    /// Moves to a point of the output layout of `extent` (the output's size in points).
    public func move(x: Int, y: Int, extent: (width: Int, height: Int)) throws(DesktopError) {
        guard display.virtualMove(x: x, y: y, extentWidth: extent.width, extentHeight: extent.height) else {
            throw DesktopError("the compositor offers no virtual pointer (zwlr_virtual_pointer_manager_v1)")
        }
    }

    /// Presses and releases the left button (or, `secondary`, the right one) where the pointer is.
    public func click(secondary: Bool = false) throws(DesktopError) {
        guard display.virtualButton(secondary: secondary, pressed: true), display.virtualButton(secondary: secondary, pressed: false) else {
            throw DesktopError("the compositor offers no virtual pointer (zwlr_virtual_pointer_manager_v1)")
        }
    }
}
