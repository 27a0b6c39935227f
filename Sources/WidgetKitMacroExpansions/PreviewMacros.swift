import Foundation
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#Preview(_ name:, as: family, [using: intent,] widget: { … }, timeline: { … })` and the
/// `timelineProvider:` form: a widget's preview, as Xcode's canvas shows it.
///
/// It expands to a function that registers the preview with the SDK, exported under a C name of a
/// known prefix, by which the SDK finds every preview of the bundle without running anything else
/// of it. The preview's closures are evaluated only when the host asks for previews.
public struct WidgetPreviewMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let arguments = PreviewArguments(node)
        guard let family = arguments.labelled["as"] else {
            throw MacroError("#Preview of a widget needs `as:` and a family, e.g. #Preview(as: .systemSmall) { MyWidget() } timeline: { … }")
        }
        guard let widget = arguments.labelled["widget"] ?? arguments.trailing.first?.expression else {
            throw MacroError("#Preview(as:) needs the widget, as its first closure: #Preview(as: .systemSmall) { MyWidget() } timeline: { … }")
        }
        var call = "WidgetKit._WidgetPreviews.register(name: \(arguments.name ?? "nil"), family: \(family), "
        if let intent = arguments.labelled["using"] { call += "intent: \(intent), " }
        call += "file: \(literal(context, node, fileID: true)), line: \(literal(context, node, fileID: false)), widget: \(widget), "
        if let timeline = arguments.closure("timeline") {
            call += "timeline: \(timeline))"
        } else if let provider = arguments.closure("timelineProvider") {
            call += "timelineProvider: \(provider))"
        } else {
            throw MacroError("#Preview(as:) needs `timeline:` (the entries to show) or `timelineProvider:` after the widget")
        }
        return registration(call, of: node, in: context)
    }
}

/// `#Preview(as: .dynamicIsland(.expanded), using: attributes) { MyLiveActivity() } contentStates: { … }`:
/// a Live Activity's preview. Its arguments are type-checked against the macro's signature; as the
/// activity is not drawn here, it registers nothing.
public struct ActivityPreviewMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// `#Preview(_ name:) { view }`: a view's preview (SwiftUI's). Registered under its name, drawn in a
/// medium widget's size by `widgets preview`.
public struct ViewPreviewMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let arguments = PreviewArguments(node)
        guard var body = arguments.labelled["body"] ?? arguments.trailing.last?.expression else {
            throw MacroError("#Preview needs the view to show, in a closure: #Preview { MyView() }")
        }
        // `@Previewable @State var x = …` at the top of the closure: the variables become the stored
        // properties of a view made for the preview, whose body is the rest of the closure, as
        // Xcode's canvas makes one.
        var prelude = ""
        if let closure = node.trailingClosure, let (properties, rest) = previewable(closure) {
            prelude = """
                struct _PreviewableView: WidgetKit.View {
                    \(properties.joined(separator: "\n"))
                    @WidgetKit.ViewBuilder var body: some WidgetKit.View {
                        \(rest)
                    }
                }

                """
            body = "{ _PreviewableView() }"
        }
        let call =
            "WidgetKit._WidgetPreviews.register(name: \(arguments.name ?? "nil"), file: \(literal(context, node, fileID: true)), line: \(literal(context, node, fileID: false)), view: \(body))"
        return registration(prelude + call, of: node, in: context)
    }

    /// The closure's `@Previewable` variables, without that attribute, and its other statements;
    /// nil when it has none.
    static func previewable(_ closure: ClosureExprSyntax) -> (properties: [String], rest: String)? {
        var properties: [String] = []
        var rest: [String] = []
        for statement in closure.statements {
            guard var variable = statement.item.as(VariableDeclSyntax.self),
                variable.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Previewable" })
            else {
                rest.append(statement.trimmedDescription)
                continue
            }
            variable.attributes = variable.attributes.filter {
                $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription != "Previewable"
            }
            properties.append(variable.trimmedDescription)
        }
        return properties.isEmpty ? nil : (properties, rest.joined(separator: "\n"))
    }
}

/// `@Previewable`: marks a variable of a `#Preview`'s closure as the preview's state. `#Preview`
/// does the work; the attribute itself adds nothing.
public struct PreviewableMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

/// The arguments of a `#Preview`: its unlabelled name, its labelled ones, and its trailing closures.
struct PreviewArguments {
    var name: String?
    var labelled: [String: String] = [:]
    var trailing: [(label: String?, expression: String)] = []

    init(_ node: some FreestandingMacroExpansionSyntax) {
        for argument in node.arguments {
            let text = argument.expression.trimmedDescription
            if let label = argument.label?.text { labelled[label] = text } else if name == nil { name = text }
        }
        if let closure = node.trailingClosure { trailing.append((nil, closure.trimmedDescription)) }
        for closure in node.additionalTrailingClosures {
            trailing.append((closure.label.text, closure.closure.trimmedDescription))
            labelled[closure.label.text] = closure.closure.trimmedDescription
        }
    }

    func closure(_ label: String) -> String? { labelled[label] }
}

/// The registering function, exported under a C name the SDK looks for: `widgetkit_preview_`, the
/// file, its line and column (zero-padded, so the names sort as the previews are written).
///
/// Not an entry in an ELF section, as the SDK's C part would find most simply: Swift 6 mode does not
/// accept `@section` on a global a macro declares (it is not a compile-time constant there).
private func registration(_ call: String, of node: some SyntaxProtocol, in context: some MacroExpansionContext) -> [DeclSyntax] {
    let function = context.makeUniqueName("widgetPreview")
    var symbol = "widgetkit_preview_"
    if let location = context.location(of: node), let line = Int(location.line.trimmedDescription),
        let column = Int(location.column.trimmedDescription)
    {
        let file = location.file.trimmedDescription.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        symbol += String(file.unicodeScalars.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" })
        symbol += "_" + String(format: "%06d_%04d", line, column)
    } else {
        symbol += function.text.filter { $0.isLetter || $0.isNumber }
    }
    return [
        """
        @c(\(raw: symbol)) public func \(function)() {
            \(raw: call)
        }
        """
    ]
}

/// The source location of the macro's use, as a string or number literal.
private func literal(_ context: some MacroExpansionContext, _ node: some SyntaxProtocol, fileID: Bool) -> String {
    guard let location = context.location(of: node) else { return fileID ? "\"\"" : "0" }
    return fileID ? location.file.trimmedDescription : location.line.trimmedDescription
}

struct MacroError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
