public import Foundation

// Modifiers a widget's views may carry that have no effect where the host draws them: animations
// and transitions (a widget is redrawn, not animated), gestures (a widget is tapped through
// `Link`, `widgetURL` and intent buttons), colour effects the host does not draw, and accessibility
// (the host's plain text is already what a reader reads). They compile as in SwiftUI, and change
// nothing. (Rotation, scale, shadow and blur are drawn: EffectModifiers.swift.)

extension View {
    public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View { unchanged }
    public func animation(_ animation: Animation?) -> some View { unchanged }
    public func transition(_ transition: AnyTransition) -> some View { unchanged }
    public func contentTransition(_ transition: ContentTransition) -> some View { unchanged }
    public func rotation3DEffect(_ angle: Angle, axis: (x: CGFloat, y: CGFloat, z: CGFloat), anchor: UnitPoint = .center) -> some View { unchanged }
    public func brightness(_ amount: Double) -> some View { unchanged }
    public func contrast(_ amount: Double) -> some View { unchanged }
    public func saturation(_ amount: Double) -> some View { unchanged }
    public func grayscale(_ amount: Double) -> some View { unchanged }
    public func hueRotation(_ angle: Angle) -> some View { unchanged }
    public func colorMultiply(_ color: Color) -> some View { unchanged }
    public func colorInvert() -> some View { unchanged }
    public func luminanceToAlpha() -> some View { unchanged }
    public func compositingGroup() -> some View { unchanged }
    public func drawingGroup(opaque: Bool = false) -> some View { unchanged }
    public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> some View { unchanged }
    public func onLongPressGesture(minimumDuration: Double = 0.5, perform action: @escaping () -> Void) -> some View { unchanged }
    public func allowsHitTesting(_ enabled: Bool) -> some View { unchanged }
    public func disabled(_ disabled: Bool) -> some View { unchanged }
    public func help(_ text: String) -> some View { unchanged }

    public func accessibilityLabel(_ label: Text) -> some View { unchanged }
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View { unchanged }
    public func accessibilityLabel(_ label: LocalizedStringKey) -> some View { unchanged }
    public func accessibilityValue(_ value: Text) -> some View { unchanged }
    public func accessibilityValue<S: StringProtocol>(_ value: S) -> some View { unchanged }
    public func accessibilityHint(_ hint: Text) -> some View { unchanged }
    public func accessibilityHint<S: StringProtocol>(_ hint: S) -> some View { unchanged }
    public func accessibilityHidden(_ hidden: Bool) -> some View { unchanged }
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { unchanged }
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { unchanged }
    public func accessibilityRemoveTraits(_ traits: AccessibilityTraits) -> some View { unchanged }
    public func accessibilityIdentifier(_ identifier: String) -> some View { unchanged }
    public func accessibilitySortPriority(_ sortPriority: Double) -> some View { unchanged }
}

/// An animation (widgets are not animated here).
public struct Animation: Hashable, Sendable {
    let name: String
    public static let `default` = Animation(name: "default")
    public static let linear = Animation(name: "linear")
    public static let easeIn = Animation(name: "easeIn")
    public static let easeOut = Animation(name: "easeOut")
    public static let easeInOut = Animation(name: "easeInOut")
    public static let spring = Animation(name: "spring")
    public static let bouncy = Animation(name: "bouncy")
    public static let smooth = Animation(name: "smooth")
    public static let snappy = Animation(name: "snappy")
    public static func linear(duration: Double) -> Animation { .linear }
    public static func easeIn(duration: Double) -> Animation { .easeIn }
    public static func easeOut(duration: Double) -> Animation { .easeOut }
    public static func easeInOut(duration: Double) -> Animation { .easeInOut }
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.8, blendDuration: Double = 0) -> Animation { .spring }
    public func delay(_ delay: Double) -> Animation { self }
    public func speed(_ speed: Double) -> Animation { self }
    public func repeatForever(autoreverses: Bool = true) -> Animation { self }
}

/// A transition (none are shown here).
public struct AnyTransition: Sendable {
    public static let identity = AnyTransition()
    public static let opacity = AnyTransition()
    public static let scale = AnyTransition()
    public static let slide = AnyTransition()
    public static let blurReplace = AnyTransition()
    public static func blurReplace(_ configuration: BlurReplaceTransition.Configuration = .downUp) -> AnyTransition { AnyTransition() }
    public static func move(edge: Edge) -> AnyTransition { AnyTransition() }
    public static func push(from edge: Edge) -> AnyTransition { AnyTransition() }
    public func combined(with other: AnyTransition) -> AnyTransition { self }
    public func animation(_ animation: Animation?) -> AnyTransition { self }
}

/// iOS 17's blur-and-replace transition; not animated here.
public struct BlurReplaceTransition: Sendable {
    public struct Configuration: Sendable {
        public static let downUp = Configuration()
        public static let upUp = Configuration()
    }
}

/// How content changes between entries (`.numericText()` in a widget); not animated here.
public struct ContentTransition: Sendable {
    public static let identity = ContentTransition()
    public static let opacity = ContentTransition()
    public static let interpolate = ContentTransition()
    public static func numericText(countsDown: Bool = false) -> ContentTransition { ContentTransition() }
    public static func numericText(value: Double) -> ContentTransition { ContentTransition() }
    public static let symbolEffect = ContentTransition()
    public static func symbolEffect<E: SymbolEffect>(_ effect: E, options: SymbolEffectOptions = .default) -> ContentTransition { ContentTransition() }
}

/// What `contentMargins(_:_:for:)` sets them for (iOS 17): scroll views' content, which a widget has not.
public struct ContentMarginPlacement: Sendable {
    public static let automatic = ContentMarginPlacement()
    public static let scrollContent = ContentMarginPlacement()
    public static let scrollIndicators = ContentMarginPlacement()
}

extension View {
    /// Margins of a scroll view's content (iOS 17): a widget has no scroll view, so nothing is moved.
    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat?, for placement: ContentMarginPlacement = .automatic) -> some View { unchanged }
    public func contentMargins(_ edges: Edge.Set = .all, _ insets: EdgeInsets, for placement: ContentMarginPlacement = .automatic) -> some View { unchanged }
    public func contentMargins(_ length: CGFloat, for placement: ContentMarginPlacement = .automatic) -> some View { unchanged }
}

public enum BlendMode: Sendable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference, exclusion, hue,
        saturation, color, luminosity, sourceAtop, destinationOver, destinationOut, plusDarker, plusLighter
}

public struct AccessibilityChildBehavior: Sendable {
    public static let ignore = AccessibilityChildBehavior()
    public static let contain = AccessibilityChildBehavior()
    public static let combine = AccessibilityChildBehavior()
}

public struct AccessibilityTraits: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let isButton = AccessibilityTraits(rawValue: 1)
    public static let isHeader = AccessibilityTraits(rawValue: 2)
    public static let isImage = AccessibilityTraits(rawValue: 4)
    public static let isStaticText = AccessibilityTraits(rawValue: 8)
    public static let isLink = AccessibilityTraits(rawValue: 16)
    public static let updatesFrequently = AccessibilityTraits(rawValue: 32)
}

/// A view's size, as an alignment guide's closure reads it.
public struct ViewDimensions: Sendable {
    public let width: CGFloat
    public let height: CGFloat
    public subscript(guide: HorizontalAlignment) -> CGFloat {
        switch guide {
        case .leading: 0
        case .trailing: width
        default: width / 2
        }
    }
    public subscript(guide: VerticalAlignment) -> CGFloat {
        switch guide {
        case .top: 0
        case .bottom: height
        default: height / 2
        }
    }
    public subscript(explicit guide: HorizontalAlignment) -> CGFloat? { nil }
    public subscript(explicit guide: VerticalAlignment) -> CGFloat? { nil }
}

extension View {
    /// Moves where the view aligns in its stack. Compiles; the host aligns the view by its own
    /// edges and centre (docs/PORTING.md).
    public func alignmentGuide(_ g: HorizontalAlignment, computeValue: @escaping (ViewDimensions) -> CGFloat) -> some View { unchanged }
    public func alignmentGuide(_ g: VerticalAlignment, computeValue: @escaping (ViewDimensions) -> CGFloat) -> some View { unchanged }
}
