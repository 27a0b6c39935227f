public import Foundation
import WidgetWire

/// A colour: a named system colour, or components. On the wire a colour is its name (`"red"`,
/// `"secondary"`) or `#rrggbb`, followed by `/opacity` when it is not opaque (`"red/0.5"`).
public struct Color: Hashable, Sendable {
    private let stored: JSONValue
    /// A colour set of the bundle's asset catalog, resolved for the appearance of the view being built.
    private var assetName: String?

    /// The colour on the wire.
    var json: JSONValue {
        guard let assetName else { return stored }
        return BundleResources.shared.assets.color(named: assetName, in: EnvironmentValues.current)?.stored ?? Self.missingAsset(assetName)
    }

    init(json: JSONValue) { stored = json }
    init(name: String) { stored = .string(name) }

    public static func == (lhs: Color, rhs: Color) -> Bool { lhs.json == rhs.json }
    public func hash(into hasher: inout Hasher) { hasher.combine(json.jsonText) }

    public static let primary = Color(name: "primary")
    public static let secondary = Color(name: "secondary")
    /// The bundle's accent colour: its asset catalog's `AccentColor` (or the set Xcode's
    /// `ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME` names), else the system's blue.
    public static var accentColor: Color {
        guard let name = BundleResources.shared.assets.accentColorName, BundleResources.shared.assets.colors[name] != nil else {
            return Color(name: "accent")
        }
        return Color(name)
    }
    public static let black = Color(name: "black")
    public static let white = Color(name: "white")
    public static let gray = Color(name: "gray")
    public static let red = Color(name: "red")
    public static let orange = Color(name: "orange")
    public static let yellow = Color(name: "yellow")
    public static let green = Color(name: "green")
    public static let mint = Color(name: "mint")
    public static let teal = Color(name: "teal")
    public static let cyan = Color(name: "cyan")
    public static let blue = Color(name: "blue")
    public static let indigo = Color(name: "indigo")
    public static let purple = Color(name: "purple")
    public static let pink = Color(name: "pink")
    public static let brown = Color(name: "brown")
    public static let clear = Color(name: "clear")

    /// The colour spaces components are given in; Linux draws all of them as sRGB.
    public enum RGBColorSpace: Hashable, Sendable {
        case sRGB, sRGBLinear, displayP3
    }

    /// Components from 0 to 1; written on the wire as `#rrggbb` (and its opacity).
    public init(_ colorSpace: RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {
        func byte(_ component: Double) -> Int { Int((min(max(component.isFinite ? component : 0, 0), 1) * 255).rounded()) }
        let hex = [byte(red), byte(green), byte(blue)].map { value in
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        self = Color(name: "#" + hex.joined()).opacity(opacity)
    }

    /// A grey: 0 black, 1 white.
    public init(_ colorSpace: RGBColorSpace = .sRGB, white: Double, opacity: Double = 1) {
        self.init(colorSpace, red: white, green: white, blue: white, opacity: opacity)
    }

    /// Hue, saturation and brightness, each from 0 to 1.
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        let h = (hue - hue.rounded(.down)) * 6
        let c = brightness * saturation
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) =
            switch Int(h) {
            case 0: (c, x, 0)
            case 1: (x, c, 0)
            case 2: (0, c, x)
            case 3: (0, x, c)
            case 4: (x, 0, c)
            default: (c, 0, x)
            }
        let m = brightness - c
        self.init(red: r + m, green: g + m, blue: b + m, opacity: opacity)
    }

    /// A colour set from the bundle's asset catalog (`widgets build` compiles it), in the
    /// appearance of the view it is used in. A name the catalog lacks is drawn clear, with a
    /// warning naming it, as on iOS.
    public init(_ name: String, bundle: Bundle? = nil) {
        stored = .string("clear")
        assetName = name
    }

    /// A colour set named in code Xcode generates for an asset catalog (`Color(.brand)`).
    public init(_ resource: ColorResource) { self.init(resource.name) }

    /// The colour drawn for a colour set the catalog lacks: clear, as iOS draws it, said once.
    private static func missingAsset(_ name: String) -> JSONValue {
        AssetWarnings.once("no colour set named \"\(name)\" in the bundle's asset catalog; it is drawn clear")
        return .string("clear")
    }

    /// A `UIColor`'s colour.
    public init(uiColor: UIColor) { self = uiColor.color }
    /// Disfavoured, so that `Color(.brand)` is the asset catalog's `ColorResource`, not a `UIColor`.
    @_disfavoredOverload
    public init(_ color: UIColor) { self = color.color }

    /// The colour at an opacity from 0 (clear) to 1.
    public func opacity(_ opacity: Double) -> Color {
        guard opacity < 1 else { return self }
        guard case .string(let name) = json else { return self }
        let base = name.split(separator: "/").first.map(String.init) ?? name
        let current = name.split(separator: "/").dropFirst().first.flatMap { Double($0) } ?? 1
        let combined = max(0, current * opacity)
        return Color(name: "\(base)/\((combined * 1000).rounded() / 1000)")
    }

    /// The colour `fraction` of the way to `other` (iOS 18), each as the widget's appearance draws
    /// it; opacities are left out.
    public func mix(with other: Color, by fraction: Double, in colorSpace: Gradient.ColorSpace = .perceptual) -> Color {
        guard case .string(let name) = json, case .string(let otherName) = other.json else { return self }
        func base(_ name: String) -> Substring { name.split(separator: "/").first ?? Substring(name) }
        guard !name.hasPrefix("mix:"), !otherName.hasPrefix("mix:") else { return fraction < 0.5 ? self : other }
        let clamped = min(1, max(0, fraction.isFinite ? fraction : 0))
        return Color(name: "mix:\(base(name)):\(base(otherName)):\((clamped * 1000).rounded() / 1000)")
    }

    /// A gentle gradient of the colour, lighter at the top (iOS 16's `Color.gradient`).
    public var gradient: AnyGradient { AnyGradient(base: self) }
}

/// A minimal `UIColor`, for code that builds a `Color` from one. Its system colours are the host's
/// (drawn for the widget's appearance); a dynamic colour is resolved for the appearance of the view
/// being built.
public final class UIColor: Sendable {
    let color: Color
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        color = Color(red: Double(red), green: Double(green), blue: Double(blue), opacity: Double(alpha))
    }
    public init(white: CGFloat, alpha: CGFloat) { color = Color(white: Double(white), opacity: Double(alpha)) }
    public init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        color = Color(hue: Double(hue), saturation: Double(saturation), brightness: Double(brightness), opacity: Double(alpha))
    }
    public init(_ color: Color) { self.color = color }

    /// A colour chosen for the appearance (light or dark) of the view being built.
    public convenience init(dynamicProvider: @escaping (UITraitCollection) -> UIColor) {
        self.init(dynamicProvider(UITraitCollection.current).color)
    }

    /// The colour at another opacity, from 0 (clear) to 1.
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor { UIColor(color.opacity(Double(alpha))) }

    public static let black = UIColor(.black)
    public static let darkGray = UIColor(white: 1 / 3, alpha: 1)
    public static let lightGray = UIColor(white: 2 / 3, alpha: 1)
    public static let white = UIColor(.white)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
    public static let clear = UIColor(.clear)

    public static let label = UIColor(.primary)
    public static let secondaryLabel = UIColor(.secondary)
    public static let tertiaryLabel = UIColor(Color(name: "tertiary"))
    public static let quaternaryLabel = UIColor(Color(name: "quaternary"))
    public static let placeholderText = UIColor(Color(name: "tertiary"))
    public static let separator = UIColor(Color(name: "separator"))
    public static let opaqueSeparator = UIColor(Color(name: "separator"))
    public static let link = UIColor(.blue)
    public static let tintColor = UIColor(.accentColor)
    public static let systemBackground = UIColor(Color(name: "background"))
    public static let secondarySystemBackground = UIColor(Color(name: "quinary"))
    public static let tertiarySystemBackground = UIColor(Color(name: "background"))
    public static let systemGroupedBackground = UIColor(Color(name: "quinary"))
    public static let secondarySystemGroupedBackground = UIColor(Color(name: "background"))
    public static let tertiarySystemGroupedBackground = UIColor(Color(name: "quinary"))
    public static let systemFill = UIColor(Color(name: "tertiary"))
    public static let secondarySystemFill = UIColor(Color(name: "quaternary"))
    public static let tertiarySystemFill = UIColor(Color(name: "quinary"))
    public static let quaternarySystemFill = UIColor(Color(name: "quinary"))

    public static let systemRed = UIColor(.red)
    public static let systemOrange = UIColor(.orange)
    public static let systemYellow = UIColor(.yellow)
    public static let systemGreen = UIColor(.green)
    public static let systemMint = UIColor(.mint)
    public static let systemTeal = UIColor(.teal)
    public static let systemCyan = UIColor(.cyan)
    public static let systemBlue = UIColor(.blue)
    public static let systemIndigo = UIColor(.indigo)
    public static let systemPurple = UIColor(.purple)
    public static let systemPink = UIColor(.pink)
    public static let systemBrown = UIColor(.brown)
    public static let systemGray = UIColor(.gray)
    public static let systemGray2 = UIColor(.gray)
    public static let systemGray3 = UIColor(Color(name: "tertiary"))
    public static let systemGray4 = UIColor(Color(name: "tertiary"))
    public static let systemGray5 = UIColor(Color(name: "quaternary"))
    public static let systemGray6 = UIColor(Color(name: "quinary"))
}

/// The traits a dynamic `UIColor` is chosen by: here, the appearance.
public final class UITraitCollection: Sendable {
    public let userInterfaceStyle: UIUserInterfaceStyle

    public init(userInterfaceStyle: UIUserInterfaceStyle) { self.userInterfaceStyle = userInterfaceStyle }

    /// The traits of the view being built (light outside a view's body).
    public static var current: UITraitCollection {
        UITraitCollection(userInterfaceStyle: EnvironmentValues.current.colorScheme == .dark ? .dark : .light)
    }
}

public enum UIUserInterfaceStyle: Int, Hashable, Sendable {
    case unspecified, light, dark
}

// MARK: - Components

extension Color {
    /// The colour's red, green, blue and opacity, 0 to 1, as the appearance of the view being built
    /// shows it (a system colour is iOS's value for light or dark).
    func components(dark: Bool = EnvironmentValues.current.colorScheme == .dark) -> (red: Double, green: Double, blue: Double, opacity: Double) {
        guard let text = json.stringValue else { return (0, 0, 0, 1) }
        let (name, opacity) = SystemColorTable.split(text)
        let (red, green, blue) = SystemColorTable.opaque(name, dark: dark)
        return (Double(red) / 255, Double(green) / 255, Double(blue) / 255, name == "clear" ? 0 : opacity)
    }

    /// A colour's components in an environment (iOS 17).
    public func resolve(in environment: EnvironmentValues) -> Resolved {
        let (red, green, blue, opacity) = components(dark: environment.colorScheme == .dark)
        return Resolved(red: Float(red), green: Float(green), blue: Float(blue), opacity: Float(opacity))
    }

    /// A colour as components (iOS 17's `Color.Resolved`).
    public struct Resolved: Hashable, Sendable {
        public var red: Float
        public var green: Float
        public var blue: Float
        public var opacity: Float
        public var linearRed: Float { Self.linear(red) }
        public var linearGreen: Float { Self.linear(green) }
        public var linearBlue: Float { Self.linear(blue) }

        public init(red: Float, green: Float, blue: Float, opacity: Float = 1) {
            self.red = red
            self.green = green
            self.blue = blue
            self.opacity = opacity
        }

        static func linear(_ value: Float) -> Float { value <= 0.04045 ? value / 12.92 : Float(pow(Double((value + 0.055) / 1.055), 2.4)) }
    }

    public init(_ resolved: Resolved) {
        self.init(red: Double(resolved.red), green: Double(resolved.green), blue: Double(resolved.blue), opacity: Double(resolved.opacity))
    }
}

extension UIColor {
    /// The colour's components, as UIKit gives them; true, as every colour here has them.
    public func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?, blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let parts = color.components()
        red?.pointee = CGFloat(parts.red)
        green?.pointee = CGFloat(parts.green)
        blue?.pointee = CGFloat(parts.blue)
        alpha?.pointee = CGFloat(parts.opacity)
        return true
    }

    public func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let parts = color.components()
        white?.pointee = CGFloat(0.299 * parts.red + 0.587 * parts.green + 0.114 * parts.blue)
        alpha?.pointee = CGFloat(parts.opacity)
        return true
    }

    public func getHue(_ hue: UnsafeMutablePointer<CGFloat>?, saturation: UnsafeMutablePointer<CGFloat>?, brightness: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let parts = color.components()
        let high = max(parts.red, parts.green, parts.blue)
        let low = min(parts.red, parts.green, parts.blue)
        let range = high - low
        var h = 0.0
        if range > 0 {
            if high == parts.red {
                h = (parts.green - parts.blue) / range
            } else if high == parts.green {
                h = 2 + (parts.blue - parts.red) / range
            } else {
                h = 4 + (parts.red - parts.green) / range
            }
            h /= 6
            if h < 0 { h += 1 }
        }
        hue?.pointee = CGFloat(h)
        saturation?.pointee = CGFloat(high == 0 ? 0 : range / high)
        brightness?.pointee = CGFloat(high)
        alpha?.pointee = CGFloat(parts.opacity)
        return true
    }
}
