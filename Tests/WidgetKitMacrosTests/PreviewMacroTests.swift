import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

@testable import WidgetKitMacroExpansions

/// `#Preview` expanded as the compiler expands it, by the toolchain's expansion library, in a file
/// of a module: what a bundle's source turns into.
@Suite struct PreviewMacroTests {
    /// The source with its `#Preview`s expanded, and the diagnostics of the expansion.
    func expand(_ source: String, file: String = "Weather.swift") -> (text: String, diagnostics: [String]) {
        let tree = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(
            sourceFiles: [tree: .init(moduleName: "Weather", fullFilePath: "/src/Weather/\(file)")])
        let expanded = tree.expand(macros: ["Preview": WidgetPreviewMacro.self], contextGenerator: { _ in context })
        return (squashed(expanded.description), context.diagnostics.map(\.message))
    }

    /// Text with each run of white space one space: the expansion's layout is the formatter's.
    func squashed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func aWidgetPreviewExportsARegistrationNamedByItsPlace() {
        let (text, diagnostics) = expand(
            """
            import WidgetKit

            #Preview("Rainy", as: .systemSmall) {
                WeatherWidget()
            } timeline: {
                WeatherEntry(date: .now, condition: "rain")
            }
            """)
        #expect(diagnostics.isEmpty)
        // A C name of the SDK's prefix, the file, then the line and column, zero-padded so the
        // names sort as the previews are written.
        #expect(text.contains("@c(widgetkit_preview_Weather_Weather_swift_000003_0001) public func"), "\(text)")
        #expect(text.contains(#"WidgetKit._WidgetPreviews.register(name: "Rainy", family: .systemSmall, file: "Weather/Weather.swift", line: 3, "#), "\(text)")
        #expect(text.contains(#"widget: { WeatherWidget() }, timeline: { WeatherEntry(date: .now, condition: "rain") })"#), "\(text)")
        #expect(!text.contains("#Preview"))
    }

    @Test func theIntentAndProviderFormsPassTheirArguments() {
        let (text, diagnostics) = expand(
            """
            #Preview(as: .accessoryCircular, using: StepIntent.sample) {
                StepWidget()
            } timelineProvider: {
                StepProvider()
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(text.contains("name: nil, family: .accessoryCircular, intent: StepIntent.sample, "), "\(text)")
        #expect(text.contains("widget: { StepWidget() }, timelineProvider: { StepProvider() })"), "\(text)")
    }

    @Test func twoPreviewsOfOneFileHaveNamesOfTheirOwn() {
        let (text, _) = expand(
            """
            #Preview(as: .systemSmall) { A() } timeline: { E() }
            #Preview(as: .systemMedium) { A() } timeline: { E() }
            """)
        #expect(text.contains("widgetkit_preview_Weather_Weather_swift_000001_0001"))
        #expect(text.contains("widgetkit_preview_Weather_Weather_swift_000002_0001"))
    }

    @Test func aPreviewWithoutWhatItNeedsSaysWhat() {
        #expect(expand("#Preview { A() } timeline: { E() }").diagnostics.first?.contains("needs `as:` and a family") == true)
        #expect(expand("#Preview(as: .systemSmall) { A() }").diagnostics.first?.contains("needs `timeline:`") == true)
    }

    @Test func aViewPreviewRegistersTheView() {
        let tree = Parser.parse(source: "#Preview(\"Card\") { CardView() }")
        let context = BasicMacroExpansionContext(sourceFiles: [tree: .init(moduleName: "Cards", fullFilePath: "/src/Cards/Card.swift")])
        let text = squashed(tree.expand(macros: ["Preview": ViewPreviewMacro.self], contextGenerator: { _ in context }).description)
        #expect(context.diagnostics.isEmpty)
        #expect(text.contains(#"WidgetKit._WidgetPreviews.register(name: "Card", file: "Cards/Card.swift", line: 1, view: { CardView() })"#), "\(text)")
    }

    @Test func aViewPreviewsPreviewableVariablesBecomeTheStateOfAViewMadeForIt() {
        let source = """
            #Preview {
                @Previewable @State var isOn = false
                @Previewable @State var name: String = "Ada"
                let greeting = "Hi"
                Toggle(isOn: $isOn) { Text(greeting + name) }
            }
            """
        let tree = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(sourceFiles: [tree: .init(moduleName: "Cards", fullFilePath: "/src/Cards/Card.swift")])
        let text = squashed(tree.expand(macros: ["Preview": ViewPreviewMacro.self], contextGenerator: { _ in context }).description)
        #expect(context.diagnostics.isEmpty)
        #expect(text.contains("struct _PreviewableView: WidgetKit.View { @State var isOn = false @State var name: String = \"Ada\" "), "\(text)")
        #expect(text.contains("@WidgetKit.ViewBuilder var body: some WidgetKit.View { let greeting = \"Hi\" Toggle(isOn: $isOn) { Text(greeting + name) } }"), "\(text)")
        #expect(text.contains("view: { _PreviewableView() })"), "\(text)")
        #expect(!text.contains("Previewable @"), "the attribute is gone: \(text)")
    }
}
