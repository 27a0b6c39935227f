import Foundation
import WidgetWire

/// The name a Live Activity's type has between an app, the host and the bundle: its attributes
/// type's own name, unqualified (the app and the extension are different modules on iOS too).
enum ActivityTypeName {
    static func of<T>(_ type: T.Type) -> String { nameOfType(type) }
}

/// Why an activity's attributes or state did not decode, naming the member.
struct ActivityDecodingError: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

/// Attributes and states between Swift values and the JSON the host keeps: Codable with
/// `JSONEncoder`'s and `JSONDecoder`'s defaults, in the app and in the bundle alike.
enum ActivityCoding {
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, what: String) throws(ActivityDecodingError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(value.jsonText.utf8))
        } catch let error as DecodingError {
            throw ActivityDecodingError(text: "the activity's \(what) (\(nameOfType(T.self))) did not decode: \(describe(error))")
        } catch {
            throw ActivityDecodingError(text: "the activity's \(what) (\(nameOfType(T.self))) did not decode: \(error)")
        }
    }

    static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValue.parse(Array(try JSONEncoder().encode(value)))
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let within = path(context)
            return "no value for \"\(key.stringValue)\"\(within.isEmpty ? "" : " in \(within)")"
        case .typeMismatch(let type, let context): return "\"\(path(context))\" is not \(nameOfType(type)) (\(context.debugDescription))"
        case .valueNotFound(let type, let context): return "\"\(path(context))\" has no \(nameOfType(type))"
        case .dataCorrupted(let context): return "\(path(context).isEmpty ? "" : "\"\(path(context))\": ")\(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// A Live Activity's presentations, drawn for one request: the Lock Screen view in the request's
/// environment (systemMedium's width), and the island's views.
enum ActivityDrawing {
    /// The modifier `activityBackgroundTint(_:)` records; taken off the view and made its background.
    static let backgroundTint = "activityBackgroundTint"

    /// What an activity request of this configuration is answered with: its presentations for the
    /// request's attributes and state, or why they do not decode.
    static func answer<Attributes: ActivityAttributes, Content: View>(
        content: @escaping (ActivityViewContext<Attributes>) -> Content, dynamicIsland: @escaping (ActivityViewContext<Attributes>) -> DynamicIsland
    ) -> _UncheckedSendable<(ProviderRequest) -> ProviderAnswer> {
        _UncheckedSendable { request in
            do {
                let context = try ActivityViewContext<Attributes>(request: request.configuration)
                return .json(draw(context, request: request, content: content, dynamicIsland: dynamicIsland).json)
            } catch {
                return .failure("\(error)")
            }
        }
    }

    static func draw<Attributes: ActivityAttributes, Content: View>(
        _ context: ActivityViewContext<Attributes>, request: ProviderRequest, content: (ActivityViewContext<Attributes>) -> Content,
        dynamicIsland: (ActivityViewContext<Attributes>) -> DynamicIsland
    ) -> WireActivityPresentations {
        let environment = request.environment
        var lockScreen = ViewResolver.root(of: content(context), in: environment)
        let tint = take(backgroundTint, from: &lockScreen).flatMap { $0 == .null ? nil : $0 }
        if let tint, !lockScreen.hasModifier("containerBackground") {
            lockScreen.modifiers.append(ViewModifierNode("containerBackground", tint))
        }
        let island = dynamicIsland(context)
        // The island is black, as on iOS, whatever the appearance: its views are built for dark.
        var dark = environment
        dark.colorScheme = .dark
        return WireActivityPresentations(
            lockScreen: lockScreen, compactLeading: island.compactLeading.resolve(dark), compactTrailing: island.compactTrailing.resolve(dark),
            minimal: island.minimal.resolve(dark), expanded: island.regions.map { ($0.position.name, $0.view.resolve(dark)) },
            widgetURL: island.url?.absoluteString, backgroundTint: tint, keylineTint: island.keyline?.json)
    }

    /// Removes the first modifier named `name` in the tree, depth first, and returns its value.
    private static func take(_ name: String, from node: inout ViewNode) -> JSONValue? {
        if let index = node.modifiers.firstIndex(where: { $0.name == name }) {
            return node.modifiers.remove(at: index).value
        }
        for index in node.children.indices {
            if let value = take(name, from: &node.children[index]) { return value }
        }
        return nil
    }
}
