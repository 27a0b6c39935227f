import Foundation
import WidgetWire

/// Supplies a parameter's choices at run time: `@Parameter(title: "Symbol", optionsProvider: SymbolOptions())`.
public protocol DynamicOptionsProvider: Sendable {
    associatedtype DefaultValue: _IntentValue
    func results() async throws -> [DefaultValue]
    func defaultResult() async -> DefaultValue?
}

extension DynamicOptionsProvider {
    public func defaultResult() async -> DefaultValue? { nil }
}
