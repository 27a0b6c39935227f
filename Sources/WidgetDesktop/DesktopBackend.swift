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
    /// Shows `pixels` (premultiplied ARGB32, `width` × `height` pixels at `scale`), `damage` in
    /// pixels (empty: all), input taken only in `input` (points).
    func present(pixels: [UInt8], width: Int, height: Int, scale: Int, damage: [PixelRect], input: [PixelRect]) throws(DesktopError)
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
