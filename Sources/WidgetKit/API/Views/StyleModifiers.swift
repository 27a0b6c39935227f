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
    /// A symbol's animation (iOS 17): a widget is drawn still, as iOS draws it between updates.
    public func symbolEffect<E: SymbolEffect>(_ effect: E, options: SymbolEffectOptions = .default, isActive: Bool = true) -> some View { unchanged }
    public func symbolEffect<E: SymbolEffect, U: Equatable>(_ effect: E, options: SymbolEffectOptions = .default, value: U) -> some View { unchanged }
    public func symbolEffectsRemoved(_ isEnabled: Bool = true) -> some View { unchanged }
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

// MARK: - Symbol effects

/// An animation of a symbol (iOS 17 and 18), by Apple's names: each is drawn still here, as a
/// widget's symbols are between updates on iOS.
public protocol SymbolEffect: Sendable {}

extension SymbolEffect {
    // The variations Apple's effects take, each the same effect here.
    public var up: Self { self }
    public var down: Self { self }
    public var byLayer: Self { self }
    public var wholeSymbol: Self { self }
    public var iterative: Self { self }
    public var cumulative: Self { self }
    public var reversing: Self { self }
    public var nonReversing: Self { self }
    public var hideInactiveLayers: Self { self }
    public var dimInactiveLayers: Self { self }
    public var offUp: Self { self }
    public var downUp: Self { self }
    public var upUp: Self { self }
    public var clockwise: Self { self }
    public var counterClockwise: Self { self }
    public var left: Self { self }
    public var right: Self { self }
    public var forward: Self { self }
    public var backward: Self { self }
    public var pulse: Self { self }
    public var plain: Self { self }
}

public struct BounceSymbolEffect: SymbolEffect {}
public struct PulseSymbolEffect: SymbolEffect {}
public struct VariableColorSymbolEffect: SymbolEffect {}
public struct ScaleSymbolEffect: SymbolEffect {}
public struct AppearSymbolEffect: SymbolEffect {}
public struct DisappearSymbolEffect: SymbolEffect {}
public struct ReplaceSymbolEffect: SymbolEffect {}
public struct WiggleSymbolEffect: SymbolEffect {}
public struct RotateSymbolEffect: SymbolEffect {}
public struct BreatheSymbolEffect: SymbolEffect {}

extension SymbolEffect where Self == BounceSymbolEffect { public static var bounce: BounceSymbolEffect { BounceSymbolEffect() } }
extension SymbolEffect where Self == PulseSymbolEffect { public static var pulse: PulseSymbolEffect { PulseSymbolEffect() } }
extension SymbolEffect where Self == VariableColorSymbolEffect { public static var variableColor: VariableColorSymbolEffect { VariableColorSymbolEffect() } }
extension SymbolEffect where Self == ScaleSymbolEffect { public static var scale: ScaleSymbolEffect { ScaleSymbolEffect() } }
extension SymbolEffect where Self == AppearSymbolEffect { public static var appear: AppearSymbolEffect { AppearSymbolEffect() } }
extension SymbolEffect where Self == DisappearSymbolEffect { public static var disappear: DisappearSymbolEffect { DisappearSymbolEffect() } }
extension SymbolEffect where Self == ReplaceSymbolEffect { public static var replace: ReplaceSymbolEffect { ReplaceSymbolEffect() } }
extension SymbolEffect where Self == WiggleSymbolEffect { public static var wiggle: WiggleSymbolEffect { WiggleSymbolEffect() } }
extension SymbolEffect where Self == RotateSymbolEffect { public static var rotate: RotateSymbolEffect { RotateSymbolEffect() } }
extension SymbolEffect where Self == BreatheSymbolEffect { public static var breathe: BreatheSymbolEffect { BreatheSymbolEffect() } }
