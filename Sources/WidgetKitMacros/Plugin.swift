@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros
import WidgetKitMacroExpansions

/// The compiler plugin that expands the SDK's macros (`#Preview`). The toolchain ships swift-syntax's
/// libraries but not `SwiftCompilerPlugin`: this is its main, in a few lines.
@main
struct WidgetKitMacrosPlugin: PluginProvider {
    static var macros: [Macro.Type] { [WidgetPreviewMacro.self, ViewPreviewMacro.self, PreviewableMacro.self, ActivityPreviewMacro.self] }

    /// The SDK declares its macros as `#externalMacro(module: "WidgetKitMacros", type: …)`, the plugin's
    /// name; the types themselves live in WidgetKitMacroExpansions.
    func resolveMacro(moduleName: String, typeName: String) throws -> Macro.Type {
        guard moduleName == "WidgetKitMacros", let macro = Self.macros.first(where: { String(describing: $0) == typeName }) else {
            throw PluginError(description: "no macro \(moduleName).\(typeName) in the WidgetKit macro plugin")
        }
        return macro
    }

    func loadPluginLibrary(libraryPath: String, moduleName: String) throws {
        throw PluginError(description: "the WidgetKit macro plugin loads no libraries")
    }

    var features: [PluginFeature] { [] }

    static func main() throws {
        let connection = try StandardIOMessageConnection()
        try CompilerPluginMessageListener(connection: connection, provider: Self()).main()
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
}
