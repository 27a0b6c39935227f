import Foundation
import Synchronization
import WidgetWire

/// The intent types this bundle's views have used, by name: what a tap names, performed here.
///
/// A view records its intent as `{"type": <module-qualified name>, "parameters": {...}}` (the
/// `@Parameter` values, as a configuration records them) and registers the type; a tap comes back
/// with that JSON and is performed on a fresh instance filled from it.
enum IntentTypes {
    private static let types = Mutex<[String: @Sendable (String) async throws -> Void]>([:])

    static func record<I: AppIntent>(_ intent: I) -> JSONValue {
        let name = String(reflecting: I.self)
        types.withLock { types in
            if types[name] == nil {
                types[name] = { parameters in
                    let fresh = I()
                    do {
                        try await IntentParameters.fill(fresh, from: parameters)
                    } catch {
                        throw IntentFailure("intent \(name): \(error)")
                    }
                    _ = try await fresh.perform()
                }
            }
        }
        return .object(JSONObject([("type", .string(name)), ("parameters", .object(IntentParameters.configuration(of: intent)))]))
    }

    static func performer(_ name: String) -> (@Sendable (String) async throws -> Void)? {
        types.withLock { $0[name] }
    }
}

struct IntentFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
