/// iOS's system colours, light and dark, as RGB, and the colours of the wire read: shared by the
/// SDK (`UIColor.getRed`, `Color.resolve(in:)`) and the renderers.
///
/// A colour is a name or `#rrggbb`, followed by `/opacity` when it is translucent (`"white/0.3"`,
/// what `Color.white.opacity(0.3)` sends).
public enum SystemColorTable {
    public static let named: [String: (light: (Int, Int, Int), dark: (Int, Int, Int))] = [
        "primary": ((0, 0, 0), (255, 255, 255)),
        // The second to fourth levels of content: UIKit's secondary, tertiary and quaternary label
        // colours, translucent there, as they show on the widget's background (#8a8a8e on white).
        "secondary": label("secondary"),
        "separator": ((198, 198, 200), (84, 84, 88)),
        "redacted": ((209, 209, 214), (72, 72, 74)),
        "accent": ((0, 122, 255), (10, 132, 255)),
        "black": ((0, 0, 0), (0, 0, 0)),
        "white": ((255, 255, 255), (255, 255, 255)),
        "gray": ((142, 142, 147), (142, 142, 147)),
        "red": ((255, 59, 48), (255, 69, 58)),
        "orange": ((255, 149, 0), (255, 159, 10)),
        "yellow": ((255, 204, 0), (255, 214, 10)),
        "green": ((52, 199, 89), (48, 209, 88)),
        "mint": ((0, 199, 190), (99, 230, 226)),
        "teal": ((48, 176, 199), (64, 200, 224)),
        "cyan": ((50, 173, 230), (100, 210, 255)),
        "blue": ((0, 122, 255), (10, 132, 255)),
        "indigo": ((88, 86, 214), (94, 92, 230)),
        "purple": ((175, 82, 222), (191, 90, 242)),
        "pink": ((255, 45, 85), (255, 55, 95)),
        "brown": ((162, 132, 94), (172, 142, 104)),
        "tertiary": label("tertiary"),
        "quaternary": label("quaternary"),
        // The fifth level (SwiftUI's `.quinary`, iOS 17), lighter still.
        "quinary": label("quinary"),
        // The system background, as a colour a view can use (`.background`).
        "background": ((255, 255, 255), (28, 28, 30)),
        // Nothing: where a colour must be given (a gradient's stop, text), the background shows.
        "clear": ((255, 255, 255), (28, 28, 30)),
    ]

    /// The label colours below the first as UIKit defines them: `#3c3c43` in light and `#ebebf5` in
    /// dark, each at its level's opacity. Drawn so where a drawing can be translucent (SVG: on a
    /// coloured background they take its hue, as on iOS); opaque, as they show on the widget's own
    /// background, elsewhere (`named`).
    public static let labelBase = (light: (60, 60, 67), dark: (235, 235, 245))
    public static let labelLevels: [String: (light: Double, dark: Double)] = [
        "secondary": (0.6, 0.6), "tertiary": (0.3, 0.3), "quaternary": (0.18, 0.16), "quinary": (0.08, 0.08),
    ]

    /// A label colour over the system background.
    static func label(_ level: String) -> (light: (Int, Int, Int), dark: (Int, Int, Int)) {
        func over(_ color: (Int, Int, Int), _ background: (Double, Double, Double), _ alpha: Double) -> (Int, Int, Int) {
            func mix(_ top: Int, _ bottom: Double) -> Int { Int((Double(top) * alpha + bottom * (1 - alpha)).rounded()) }
            return (mix(color.0, background.0), mix(color.1, background.1), mix(color.2, background.2))
        }
        let alpha = labelLevels[level]!
        return (over(labelBase.light, (255, 255, 255), alpha.light), over(labelBase.dark, (28, 28, 30), alpha.dark))
    }

    /// A colour's name (or `#rrggbb`) and its opacity, 0 to 1: `"red/0.5"` is red at half opacity.
    public static func split(_ color: String) -> (name: Substring, opacity: Double) {
        guard let slash = color.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (color[...], 1) }
        guard let opacity = Double(color[color.index(after: slash)...]), opacity.isFinite else { return (color[..<slash], 1) }
        return (color[..<slash], min(1, max(0, opacity)))
    }

    /// A colour without its opacity, as RGB; an unknown name is the primary colour.
    public static func opaque(_ name: Substring, dark: Bool) -> (Int, Int, Int) {
        if name.utf8.first == UInt8(ascii: "#"), name.utf8.count == 7, let value = Int(name.dropFirst(), radix: 16) {
            return ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
        }
        // Two colours mixed (`Color.mix(with:by:)`): "mix:red:mint:0.3" is three tenths of the way
        // from red to mint, each as this appearance draws it.
        if name.hasPrefix("mix:") {
            let parts = name.split(separator: ":")
            guard parts.count == 4, let fraction = Double(parts[3]), fraction.isFinite, !parts[1].hasPrefix("mix"), !parts[2].hasPrefix("mix")
            else { return opaque("primary", dark: dark) }
            let (bottom, top) = (opaque(parts[1], dark: dark), opaque(parts[2], dark: dark))
            // Weighed out of 256 in integers, as the renderers blend every translucent colour.
            let weight = Int((min(1, max(0, fraction)) * 256).rounded())
            func mix(_ a: Int, _ b: Int) -> Int { (a * weight + b * (256 - weight) + 128) >> 8 }
            return (mix(top.0, bottom.0), mix(top.1, bottom.1), mix(top.2, bottom.2))
        }
        let pair = named[String(name)] ?? named["primary"]!
        return dark ? pair.dark : pair.light
    }
}
