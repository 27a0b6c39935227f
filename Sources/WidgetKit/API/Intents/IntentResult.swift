import Foundation

/// The result of `perform()`.
public protocol IntentResult: Sendable {}

/// A result that returns a value (`some IntentResult & ReturnsValue<Int>`).
public protocol ReturnsValue<Value>: IntentResult {
    associatedtype Value
}

/// A result that speaks a dialog.
public protocol ProvidesDialog: IntentResult {}

/// A result that shows a view.
public protocol ShowsSnippetView: IntentResult {}

/// A result that opens another intent.
public protocol OpensIntent: IntentResult {}

/// What an intent says when it is done (not shown here: an intent runs from a widget's button).
public struct IntentDialog: ExpressibleByStringInterpolation, Sendable {
    public let text: String
    public init(stringLiteral value: String) { text = value }
    public init(_ text: LocalizedStringResource) { self.text = text.text }
    public init(full: LocalizedStringResource, supporting: LocalizedStringResource) { text = full.text }
}

public struct _IntentResultValue<Value>: IntentResult, ReturnsValue, ProvidesDialog, ShowsSnippetView, OpensIntent, @unchecked Sendable {
    let value: Value?
}

extension IntentResult where Self == _IntentResultValue<Never> {
    /// A result with nothing to return.
    public static func result() -> Self { _IntentResultValue(value: nil) }
    public static func result(dialog: IntentDialog) -> Self { _IntentResultValue(value: nil) }
    public static func result<Content: View>(dialog: IntentDialog, @ViewBuilder view: () -> Content) -> Self { _IntentResultValue(value: nil) }
    public static func result<Content: View>(@ViewBuilder view: () -> Content) -> Self { _IntentResultValue(value: nil) }
    public static func result<I: AppIntent>(opensIntent: I) -> Self { _IntentResultValue(value: nil) }
}

extension IntentResult {
    /// A result returning a value.
    public static func result<V>(value: V) -> _IntentResultValue<V> where Self == _IntentResultValue<V> { _IntentResultValue(value: value) }
    public static func result<V>(value: V, dialog: IntentDialog) -> _IntentResultValue<V> where Self == _IntentResultValue<V> {
        _IntentResultValue(value: value)
    }
}
