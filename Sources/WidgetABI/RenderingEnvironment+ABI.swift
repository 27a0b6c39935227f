import CWidgetABI
import WidgetWire

extension RenderingEnvironment.ColorScheme {
    /// The header's `widget_color_scheme_t` for the scheme.
    package var abiValue: UInt32 {
        let value: widget_color_scheme_t =
            switch self {
            case .light: WIDGET_COLOR_SCHEME_LIGHT
            case .dark: WIDGET_COLOR_SCHEME_DARK
            }
        return UInt32(value.rawValue)
    }

    /// The scheme of a `widget_color_scheme_t`; nil for a value the header does not define.
    package init?(abiValue: UInt32) {
        guard let scheme = Self.allCases.first(where: { $0.abiValue == abiValue }) else { return nil }
        self = scheme
    }
}

extension RenderingEnvironment.RenderingMode {
    /// The header's `widget_rendering_mode_t` for the mode.
    package var abiValue: UInt32 {
        let value: widget_rendering_mode_t =
            switch self {
            case .fullColor: WIDGET_RENDERING_MODE_FULL_COLOR
            case .accented: WIDGET_RENDERING_MODE_ACCENTED
            case .vibrant: WIDGET_RENDERING_MODE_VIBRANT
            }
        return UInt32(value.rawValue)
    }

    /// The mode of a `widget_rendering_mode_t`; nil for a value the header does not define.
    package init?(abiValue: UInt32) {
        guard let mode = Self.allCases.first(where: { $0.abiValue == abiValue }) else { return nil }
        self = mode
    }
}

extension RenderingEnvironment {
    /// From a request's ABI 1.4 fields; values the header does not define read as light and full
    /// colour, as a request of an older minor version does.
    package init(abiColorScheme: UInt32, abiRenderingMode: UInt32, showsContainerBackground: Bool) {
        self.init(
            colorScheme: ColorScheme(abiValue: abiColorScheme) ?? .light, renderingMode: RenderingMode(abiValue: abiRenderingMode) ?? .fullColor,
            showsContainerBackground: showsContainerBackground)
    }
}
