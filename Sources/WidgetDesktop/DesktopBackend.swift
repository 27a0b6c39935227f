import WidgetRendering

/// Where `widgets desktop` shows the widgets: a Wayland layer surface (`WaylandBackend`) or an X11
/// desktop window (`X11Backend`). The client lays out and draws; a backend keeps the surface, says
/// when it must be drawn again and where it was clicked, and shows the pixels.
protocol DesktopBackend: AnyObject {
    /// Waits at most `timeout` seconds (nil: as long as it takes) for the display or `wake`; true when
    /// `wake` is readable. What the display said is then taken with `takeEvents`.
    func dispatch(wake: Int32, timeout: Double?) throws(DesktopError) -> Bool
    func takeEvents() -> [DesktopEvent]
    /// Readies a surface of `width` × `height` points: nil while it cannot be drawn on (being made,
    /// not configured yet, no output); else its scale (pixels a point) and the size in points it is
    /// to be drawn at (a compositor may give less than asked).
    func prepare(width: Int, height: Int) -> (scale: Int, width: Int, height: Int)?
    /// Begins a drawing of the widgets on a surface of `width` × `height` pixels at `scale`, of all
    /// of them when `everything` (they moved, one went, the surface was exposed): true when every
    /// widget must be drawn in it whatever was asked (a new surface, size or scale).
    func begin(width: Int, height: Int, scale: Int, everything: Bool) throws(DesktopError) -> Bool
    /// Shows the `index`th widget (in the arrangement's order) at `rect`, in pixels of the surface;
    /// `image` nil: nothing there. On Wayland each widget is a surface of its own, whose pixels the
    /// compositor alone keeps; on X11 the window's pixels are kept to be sent again when asked.
    func show(_ image: RasterImage?, at rect: PixelRect, index: Int) throws(DesktopError)
    /// Ends the drawing: `count` widgets are shown (any after them go), input taken only in `input`
    /// (points).
    func end(count: Int, input: [PixelRect]) throws(DesktopError)
    /// Nothing to show: the surface goes.
    func hide()
}

/// What a backend tells the client.
enum DesktopEvent {
    /// Everything must be drawn again (a new surface, scale, configure, exposure).
    case redrawAll
    /// A click released at a point of the surface, in points: the primary button (a tap) or the
    /// secondary one (the home screen).
    case click(x: Double, y: Double, primary: Bool)
    /// Something to say (under `-v` when `debug`).
    case note(String, debug: Bool)
}
