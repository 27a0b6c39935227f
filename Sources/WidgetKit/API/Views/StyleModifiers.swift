import Foundation
import WidgetWire

extension View {
    /// Sets the colour of text and symbols in this view.
    public func foregroundColor(_ color: Color?) -> some View { wire("foregroundColor", color?.json ?? .null) }

    /// Sets the style of text, symbols and unfilled shapes in this view: a colour, or a gradient
    /// across each text's bounds.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { wire("foregroundStyle", style._paint) }

    /// The primary and secondary styles: text and a symbol's primary layer in the first, a
    /// symbol's secondary layer (its enclosing circle, its slash) in the second, as `.palette`
    /// rendering draws them.
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> some View {
        wire("foregroundStyle", primary._paint).wire("secondaryForegroundStyle", secondary._paint)
    }

    /// The primary, secondary and tertiary styles (symbols here have two layers: the third is kept
    /// for none).
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle, S3: ShapeStyle>(_ primary: S1, _ secondary: S2, _ tertiary: S3) -> some View {
        wire("foregroundStyle", primary._paint).wire("secondaryForegroundStyle", secondary._paint)
    }

    /// The tint of controls, progress views and gauges in this view.
    public func tint(_ tint: Color?) -> some View { wire("tint", tint?.json ?? .null) }
    public func tint<S: ShapeStyle>(_ tint: S?) -> some View { wire("tint", tint?._paint ?? .null) }

    /// The accent colour of this view (the older spelling of the tint).
    public func accentColor(_ accentColor: Color?) -> some View { wire("tint", accentColor?.json ?? .null) }

    /// The appearance the view is built in.
    public func preferredColorScheme(_ colorScheme: ColorScheme?) -> some View { unchanged }
    public func colorScheme(_ colorScheme: ColorScheme) -> some View { environment(\.colorScheme, colorScheme) }

    /// How symbols' layers are coloured: monochrome, hierarchical (the secondary layer in the
    /// primary colour, fainter), palette (in the secondary style) or multicolor (drawn as
    /// hierarchical here: the symbols' own colours are Apple's artwork).
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> some View { wire("symbolRenderingMode", mode.map { .string($0.name) } ?? .null) }
    public func symbolVariant(_ variant: SymbolVariants) -> some View { wire("symbolVariant", .string(variant.name)) }
    public func imageScale(_ scale: Image.Scale) -> some View { wire("imageScale", .string(String(describing: scale))) }
    public func symbolEffect<E>(_ effect: E, options: SymbolEffectOptions = .default, isActive: Bool = true) -> some View { unchanged }
    public func symbolEffect<E, U: Equatable>(_ effect: E, options: SymbolEffectOptions = .default, value: U) -> some View { unchanged }
}

/// How a symbol's layers are coloured.
public struct SymbolRenderingMode: Hashable, Sendable {
    let name: String
    public static let monochrome = SymbolRenderingMode(name: "monochrome")
    public static let multicolor = SymbolRenderingMode(name: "multicolor")
    public static let hierarchical = SymbolRenderingMode(name: "hierarchical")
    public static let palette = SymbolRenderingMode(name: "palette")
}

/// A symbol's variant (`.fill` draws the filled symbol).
public struct SymbolVariants: Hashable, Sendable {
    let name: String
    public static let none = SymbolVariants(name: "none")
    public static let fill = SymbolVariants(name: "fill")
    public static let circle = SymbolVariants(name: "circle")
    public static let square = SymbolVariants(name: "square")
    public static let slash = SymbolVariants(name: "slash")
    public static let rectangle = SymbolVariants(name: "rectangle")
    public var fill: SymbolVariants { SymbolVariants(name: name == "none" ? "fill" : "\(name).fill") }
}

/// Options of a symbol effect (none are animated in a widget).
public struct SymbolEffectOptions: Sendable {
    public static let `default` = SymbolEffectOptions()
    public static let repeating = SymbolEffectOptions()
    public static let nonRepeating = SymbolEffectOptions()
    public static func `repeat`(_ count: Int) -> SymbolEffectOptions { SymbolEffectOptions() }
    public static func speed(_ speed: Double) -> SymbolEffectOptions { SymbolEffectOptions() }
}
