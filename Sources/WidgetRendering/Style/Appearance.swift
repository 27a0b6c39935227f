import WidgetWire

/// Light or dark: the colour scheme views are built for and drawn in, by every renderer (system
/// colours, paints and backgrounds each have a light and a dark value).
public typealias Appearance = RenderingEnvironment.ColorScheme
