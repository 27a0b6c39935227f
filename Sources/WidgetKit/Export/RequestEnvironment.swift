import WidgetWire

extension ColorScheme {
    /// The scheme a request's environment names.
    init(_ scheme: RenderingEnvironment.ColorScheme) {
        switch scheme {
        case .light: self = .light
        case .dark: self = .dark
        }
    }
}

extension WidgetRenderingMode {
    /// The mode a request's environment names.
    init(_ mode: RenderingEnvironment.RenderingMode) {
        switch mode {
        case .fullColor: self = .fullColor
        case .accented: self = .accented
        case .vibrant: self = .vibrant
        }
    }
}
