import FoundationEssentials
import WidgetWire

/// iOS's system colours, light and dark, as RGB.
///
/// A colour is a name or `#rrggbb`, followed by `/opacity` when it is translucent (`"white/0.3"`,
/// what `Color.white.opacity(0.3)` sends).
public enum SystemColors {
    /// The names, in a fixed order: `CellColor` holds a colour by its place here.
    static let names: [String] = named.keys.sorted()
    static let index: [String: Int] = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, $0.offset) })
    /// Each name's RGB by its place in `names`, light and dark: what a cell's colour is read from,
    /// many thousand times a frame, without hashing a name.
    static let lightByIndex: [(Int, Int, Int)] = names.map { named[$0]!.light }
    static let darkByIndex: [(Int, Int, Int)] = names.map { named[$0]!.dark }

    static let named = SystemColorTable.named

    /// A colour as RGB; an unknown name is the primary colour. A translucent colour is given as it
    /// shows over the widget's background.
    public static func rgb(_ color: String, _ appearance: Appearance) -> (Int, Int, Int) {
        let (name, opacity) = split(color)
        let solid = opaque(name, appearance)
        return opacity < 1 ? blend(solid, over: background(appearance), opacity) : solid
    }

    /// A colour's name (or `#rrggbb`) and its opacity, 0 to 1: `"red/0.5"` is red at half opacity.
    public static func split(_ color: String) -> (name: Substring, opacity: Double) { SystemColorTable.split(color) }

    /// A colour without its opacity, as RGB.
    static func opaque(_ name: Substring, _ appearance: Appearance) -> (Int, Int, Int) { SystemColorTable.opaque(name, dark: appearance == .dark) }

    /// `top` at `opacity` over `bottom`.
    public static func blend(_ top: (Int, Int, Int), over bottom: (Int, Int, Int), _ opacity: Double) -> (Int, Int, Int) {
        blend(top, over: bottom, weight: weight(opacity))
    }

    /// An opacity as a weight out of 256, for `blend(_:over:weight:)`.
    static func weight(_ opacity: Double) -> Int { Int((min(1, max(0, opacity)) * 256).rounded()) }

    /// `top` over `bottom` at `weight` out of 256, in integers: a cell's colour is blended so for
    /// every cell of a translucent fill.
    static func blend(_ top: (Int, Int, Int), over bottom: (Int, Int, Int), weight: Int) -> (Int, Int, Int) {
        func mix(_ a: Int, _ b: Int) -> Int { (a * weight + b * (256 - weight) + 128) >> 8 }
        return (mix(top.0, bottom.0), mix(top.1, bottom.1), mix(top.2, bottom.2))
    }

    /// The colour at `opacity` times its own: `"red/0.5"` at 0.5 is `"red/0.25"`.
    public static func fading(_ color: String, by opacity: Double) -> String {
        guard opacity < 1 else { return color }
        let (name, own) = split(color)
        return "\(name)/\(own * max(0, opacity))"
    }

    /// RGB as `#rrggbb`.
    public static func hex(_ rgb: (Int, Int, Int)) -> String {
        func two(_ value: Int) -> String {
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + two(rgb.0) + two(rgb.1) + two(rgb.2)
    }

    /// A widget's background: iOS's system background.
    public static func background(_ appearance: Appearance) -> (Int, Int, Int) {
        appearance == .light ? (255, 255, 255) : (28, 28, 30)
    }

    /// The nearest colour of xterm's 256: the 6×6×6 cube or the grey ramp, whichever is closer.
    public static func xterm256(_ red: Int, _ green: Int, _ blue: Int) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearest(_ value: Int) -> Int { levels.indices.min { abs(levels[$0] - value) < abs(levels[$1] - value) }! }
        let (r, g, b) = (nearest(red), nearest(green), nearest(blue))
        let cube = (levels[r], levels[g], levels[b])
        let grey = min(23, max(0, ((red + green + blue) / 3 - 8 + 5) / 10))
        let greyValue = 8 + grey * 10
        func distance(_ c: (Int, Int, Int)) -> Int {
            (c.0 - red) * (c.0 - red) + (c.1 - green) * (c.1 - green) + (c.2 - blue) * (c.2 - blue)
        }
        return distance((greyValue, greyValue, greyValue)) < distance(cube) ? 232 + grey : 16 + 36 * r + 6 * g + b
    }
}
