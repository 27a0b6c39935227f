/// The environment a widget's views are built for, sent with each request (ABI 1.4): what SwiftUI's
/// `colorScheme`, and WidgetKit's `widgetRenderingMode` and `showsWidgetContainerBackground`, read.
public struct RenderingEnvironment: Hashable, Sendable {
    public enum ColorScheme: String, CaseIterable, Hashable, Sendable {
        case light, dark
    }

    /// WidgetKit's rendering modes, with its names.
    public enum RenderingMode: String, CaseIterable, Hashable, Sendable {
        /// Colours as the views give them: the Home Screen.
        case fullColor
        /// Tinted: views marked `widgetAccentable` take the accent colour, the rest one other colour.
        case accented
        /// Desaturated to shades of one colour: the Lock Screen's accessory widgets.
        case vibrant
    }

    public var colorScheme: ColorScheme
    public var renderingMode: RenderingMode
    /// Whether the system draws the widget's container background; false on the Lock Screen, where
    /// it removes it.
    public var showsContainerBackground: Bool

    public init(colorScheme: ColorScheme = .light, renderingMode: RenderingMode = .fullColor, showsContainerBackground: Bool = true) {
        self.colorScheme = colorScheme
        self.renderingMode = renderingMode
        self.showsContainerBackground = showsContainerBackground
    }

    /// Where iOS shows a family: accessory families on the Lock Screen (vibrant, no container
    /// background), the others on the Home Screen (full colour, with it). `mode` overrides the
    /// rendering mode.
    public static func standard(for family: WidgetFamily, colorScheme: ColorScheme = .light, mode: RenderingMode? = nil) -> Self {
        let onLockScreen = family.isAccessory
        return RenderingEnvironment(
            colorScheme: colorScheme, renderingMode: mode ?? (onLockScreen ? .vibrant : .fullColor), showsContainerBackground: !onLockScreen)
    }
}

extension WidgetFamily {
    /// The Lock Screen families (circular, rectangular, inline).
    public var isAccessory: Bool { self == .accessoryCircular || self == .accessoryRectangular || self == .accessoryInline }
}
