import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#Preview(_ name:, as: family, [using: intent,] widget: { … }, timeline: { … })` and the
/// `timelineProvider:` form: a widget's preview, as Xcode's canvas shows it.
///
/// It expands to a function that registers the preview with the SDK, and a C function pointer to
/// it in the bundle's `widgetkit_previews` ELF section, where the SDK finds every preview of the
/// bundle without running anything else of it. The preview's closures are evaluated only when the
/// host asks for previews.
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
        return registration(call, in: context)
    }
}

/// `#Preview(_ name:) { view }`: a view's preview (SwiftUI's). Registered under its name, drawn in a
/// medium widget's size by `widgets preview`.
public struct ViewPreviewMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let arguments = PreviewArguments(node)
        guard let body = arguments.labelled["body"] ?? arguments.trailing.last?.expression else {
            throw MacroError("#Preview needs the view to show, in a closure: #Preview { MyView() }")
        }
        let call =
            "WidgetKit._WidgetPreviews.register(name: \(arguments.name ?? "nil"), file: \(literal(context, node, fileID: true)), line: \(literal(context, node, fileID: false)), view: \(body))"
        return registration(call, in: context)
    }
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

/// The registering function and the section entry that points at it.
private func registration(_ call: String, in context: some MacroExpansionContext) -> [DeclSyntax] {
    let function = context.makeUniqueName("widgetPreview")
    let entry = context.makeUniqueName("widgetPreviewEntry")
    return [
        "private func \(function)() { \(raw: call) }",
        """
        @section("widgetkit_previews") @used
        private let \(entry): @convention(c) () -> Void = { \(function)() }
        """,
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
